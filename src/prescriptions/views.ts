// JSON shapes of the prescriptions API; islands import these as types only.
import type { PrismBaseName } from "./rules.ts";

/** One eye's lens specification as stored: powers as decimal strings ("-2.25", "1.00"). */
export interface EyeView {
  sphere: string;
  cylinder: string | null;
  axis: number | null;
  add: string | null;
  prism: { amount: string; base: PrismBaseName } | null;
}

/** A prescription (FHIR VisionPrescription-like): od is rightEye, os leftEye. */
export interface PrescriptionView {
  id: string;
  clientId: string;
  dateWritten: string;
  prescriber: string;
  expiresOn: string | null;
  notes: string;
  rightEye: EyeView;
  leftEye: EyeView;
  createdAt: string;
  updatedAt: string;
}
