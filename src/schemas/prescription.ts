import { z } from "zod";
import { multilineText, safeText } from "./text.ts";
import {
  ADD,
  axisProblem,
  CYLINDER,
  hundredthsText,
  parseAxis,
  parseHundredths,
  powerProblem,
  type PowerRule,
  PRISM,
  PRISM_BASES,
  SPHERE,
} from "../prescriptions/rules.ts";

// One schema for the entry form (as you type) and for POST/PUT
// /api/clients/{id}/prescriptions. Powers arrive as numbers or strings
// ("-2.25", "+1", "PL" for plano) and leave as canonical decimal strings.

const rawValue = z.union([safeText(), z.number()]).nullish();

/** A power by its rule; `required` refuses empty; plano ("PL") reads as zero where allowed. */
function power(rule: PowerRule, required: boolean) {
  return rawValue.transform((v, ctx) => {
    const text = v === null || v === undefined ? "" : String(v).trim();
    const h = rule === SPHERE && /^(pl|plano)$/i.test(text) ? 0 : parseHundredths(text);
    if (h === null) {
      if (required) ctx.addIssue({ code: "custom", message: `${rule.label} is required` });
      return required ? z.NEVER : null;
    }
    const problem = powerProblem(rule, h);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return hundredthsText(h);
  });
}

const BASE_MESSAGE = "Base must be up, down, in or out";
const prismBase = z.union([z.enum(PRISM_BASES, BASE_MESSAGE), z.literal("")], BASE_MESSAGE)
  .nullish().transform((v) => v || null);

const prismSchema = z.object({ amount: power(PRISM, false), base: prismBase })
  .nullish()
  .superRefine((p, ctx) => {
    if (!p) return;
    if (p.amount !== null && p.base === null) {
      ctx.addIssue({ code: "custom", path: ["base"], message: "Choose the prism's base" });
    }
    if (p.amount === null && p.base !== null) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "Enter the prism amount" });
    }
  })
  .transform((p) => (p && p.amount !== null && p.base !== null ? p : null));

/** One eye's lens specification (FHIR lensSpecification). */
export const eyeSchema = z.object({
  sphere: power(SPHERE, true),
  cylinder: power(CYLINDER, false),
  axis: z.union([safeText(), z.number()]).nullish(),
  add: power(ADD, false),
  prism: prismSchema,
}, { error: "Enter this eye's values" }).transform((eye, ctx) => {
  const axis = eye.axis === null || eye.axis === undefined ? null : parseAxis(eye.axis);
  const cylinder = eye.cylinder === null ? null : parseHundredths(eye.cylinder);
  const problem = axisProblem(cylinder, axis);
  if (problem) {
    ctx.addIssue({ code: "custom", path: ["axis"], message: problem });
    return z.NEVER;
  }
  return { ...eye, axis };
});
export type EyeInput = z.infer<typeof eyeSchema>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) => {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v &&
    d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2999;
};

const dateField = (label: string) =>
  safeText({ trim: true, error: `${label} is required` }).min(1, `${label} is required`)
    .refine(isRealDate, { message: `${label} must be a date (YYYY-MM-DD)` });

/** Written no later than tomorrow (a day of slack for time zones). */
const writtenField = dateField("Date written").refine((v) => {
  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return !isRealDate(v) || v <= tomorrow;
}, { message: "Date written cannot be in the future" });

export const prescriptionSchema = z.object({
  dateWritten: writtenField,
  prescriber: safeText({ trim: true, error: "Prescriber is required" })
    .min(1, "Prescriber is required").max(120, "Prescriber must be at most 120 characters"),
  expiresOn: z.union([dateField("Expiry date"), z.literal(""), z.null()]).optional()
    .transform((v) => v || null),
  notes: multilineText({ trim: true }).max(2000, "Notes must be at most 2000 characters")
    .nullish().transform((v) => v ?? ""),
  rightEye: eyeSchema,
  leftEye: eyeSchema,
}).superRefine((p, ctx) => {
  if (p.expiresOn && p.expiresOn < p.dateWritten) {
    ctx.addIssue({
      code: "custom",
      path: ["expiresOn"],
      message: "Expiry date cannot be before the date written",
    });
  }
});
export type PrescriptionInput = z.infer<typeof prescriptionSchema>;

/** What the entry form holds while typing: every field as a string. */
export interface EyeFormValues {
  sphere: string;
  cylinder: string;
  axis: string;
  add: string;
  prismAmount: string;
  prismBase: string;
}
export interface PrescriptionFormValues {
  dateWritten: string;
  prescriber: string;
  expiresOn: string;
  notes: string;
  rightEye: EyeFormValues;
  leftEye: EyeFormValues;
}

export const emptyEyeForm: EyeFormValues = {
  sphere: "",
  cylinder: "",
  axis: "",
  add: "",
  prismAmount: "",
  prismBase: "",
};

/** The form's strings as the payload the schema and the API take. */
export function prescriptionPayload(f: PrescriptionFormValues) {
  const eye = (e: EyeFormValues) => ({
    sphere: e.sphere,
    cylinder: e.cylinder,
    axis: e.axis,
    add: e.add,
    prism: e.prismAmount.trim() || e.prismBase
      ? { amount: e.prismAmount, base: e.prismBase }
      : null,
  });
  return {
    dateWritten: f.dateWritten,
    prescriber: f.prescriber,
    expiresOn: f.expiresOn,
    notes: f.notes,
    rightEye: eye(f.rightEye),
    leftEye: eye(f.leftEye),
  };
}
