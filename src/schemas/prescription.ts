import * as z from "zod";
import { isCalendarDate } from "./calendar_date.ts";
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
  type PrismBaseName,
  SPHERE,
} from "../prescriptions/rules.ts";

// One schema for the entry form (as you type) and for POST/PUT
// /api/clients/{id}/prescriptions. Powers arrive as numbers or strings
// ("-2.25", "+1", "PL" for plano) and leave as canonical decimal strings.

const rawValue = z.union([safeText(), z.number()]).nullish();

type Ctx = z.RefinementCtx;

/** A power by its rule, as its canonical text; null when empty; z.NEVER after an issue. */
function power(ctx: Ctx, path: PropertyKey[], rule: PowerRule, raw: unknown, required: boolean) {
  const text = raw === null || raw === undefined ? "" : String(raw).trim();
  // Plano ("PL") reads as zero for the sphere, as opticians write it.
  const h = rule === SPHERE && /^(pl|plano)$/i.test(text) ? 0 : parseHundredths(text);
  if (h === null) {
    if (!required) return null;
    ctx.addIssue({ code: "custom", path, message: `${rule.label} is required` });
    return z.NEVER;
  }
  const problem = powerProblem(rule, h);
  if (problem) {
    ctx.addIssue({ code: "custom", path, message: problem });
    return z.NEVER;
  }
  return hundredthsText(h);
}

const BASE_MESSAGE = "Base must be up, down, in or out";
const isBase = (v: unknown): v is PrismBaseName => PRISM_BASES.includes(v as PrismBaseName);

/**
 * One eye's lens specification (FHIR lensSpecification). Every field is
 * checked in one pass, so the form shows each problem at once, the axis
 * rule included (it needs the cylinder).
 */
export const eyeSchema = z.object({
  sphere: rawValue,
  cylinder: rawValue,
  axis: rawValue,
  add: rawValue,
  prism: z.object({ amount: rawValue, base: rawValue }).nullish(),
}, { error: "Enter this eye's values" }).transform((eye, ctx) => {
  const sphere = power(ctx, ["sphere"], SPHERE, eye.sphere, true);
  const cylinder = power(ctx, ["cylinder"], CYLINDER, eye.cylinder, false);
  const add = power(ctx, ["add"], ADD, eye.add, false);
  const axis = eye.axis === null || eye.axis === undefined ? null : parseAxis(eye.axis);
  // An invalid cylinder has its own message; the axis is judged against what was typed.
  const cylinderTyped = parseHundredths(String(eye.cylinder ?? ""));
  const axisIssue = axisProblem(
    cylinderTyped === null || Number.isNaN(cylinderTyped) ? null : cylinderTyped,
    axis,
  );
  if (axisIssue && !(Number.isNaN(cylinderTyped) && axis !== null && !Number.isNaN(axis))) {
    ctx.addIssue({ code: "custom", path: ["axis"], message: axisIssue });
  }
  const amountRaw = eye.prism?.amount;
  const baseRaw = eye.prism?.base ?? "";
  const amount = power(ctx, ["prism", "amount"], PRISM, amountRaw, false);
  let base: PrismBaseName | null = null;
  if (baseRaw !== "" && !isBase(baseRaw)) {
    ctx.addIssue({ code: "custom", path: ["prism", "base"], message: BASE_MESSAGE });
  } else if (baseRaw !== "") base = baseRaw as PrismBaseName;
  if (amount !== null && baseRaw === "") {
    ctx.addIssue({ code: "custom", path: ["prism", "base"], message: "Choose the prism's base" });
  }
  if (amount === null && base !== null) {
    ctx.addIssue({ code: "custom", path: ["prism", "amount"], message: "Enter the prism amount" });
  }
  return {
    sphere: sphere as string,
    cylinder: cylinder as string | null,
    axis: axis as number | null,
    add: add as string | null,
    prism: amount !== null && base !== null ? { amount: amount as string, base } : null,
  };
});
export type EyeInput = z.infer<typeof eyeSchema>;

const dateField = (label: string) =>
  safeText({ trim: true, error: `${label} is required` }).min(1, `${label} is required`)
    // A day that exists, in the years a prescription can have been written or expire.
    .refine((v) => isCalendarDate(v), { message: `${label} must be a date (YYYY-MM-DD)` });

/** Written no later than tomorrow (a day of slack for time zones). */
const writtenField = dateField("Date written").refine((v) => {
  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return !isCalendarDate(v) || v <= tomorrow;
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
