// The lab's rules for a spectacle prescription, as pure functions: the zod
// schema (src/schemas/prescription.ts) checks input with them in the form and
// in the API, and the screens and the print show values with them.
//
// Powers are handled as whole hundredths of a dioptre, so "steps of 0.25" is
// an integer remainder and never a floating-point comparison.

export const PRISM_BASES = ["up", "down", "in", "out"] as const;
export type PrismBaseName = (typeof PRISM_BASES)[number];

/** A power's range and step, in hundredths of a dioptre. */
export interface PowerRule {
  label: string;
  min: number;
  max: number;
  /** 25 for quarter dioptres; 1 where only two decimals are asked (prism). */
  step: number;
}

export const SPHERE: PowerRule = { label: "Sphere", min: -3000, max: 3000, step: 25 };
export const CYLINDER: PowerRule = { label: "Cylinder", min: -1500, max: 1500, step: 25 };
export const ADD: PowerRule = { label: "Add", min: 25, max: 400, step: 25 };
export const PRISM: PowerRule = { label: "Prism", min: 25, max: 2000, step: 1 };
export const AXIS_MIN = 1;
export const AXIS_MAX = 180;

const NUMBER = /^[+-]?(\d{1,3}(\.\d*)?|\.\d+)$/;

/** "+1.00", "-2.25", "0.00" as a number of hundredths; "" is null; NaN when not a number. */
export function parseHundredths(input: string | number): number | null {
  const text = String(input).trim();
  if (text === "") return null;
  if (!NUMBER.test(text)) return Number.NaN;
  const [whole, fraction = ""] = text.replace(/^[+-]/, "").split(".");
  // More than two decimals is allowed only when the rest are zeros ("1.250").
  if (/[1-9]/.test(fraction.slice(2))) return Number.NaN;
  const value = Number(whole || "0") * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
  return text.startsWith("-") ? -value : value;
}

/** Hundredths as the canonical decimal string stored and answered ("-2.25", "1.00"). */
export function hundredthsText(value: number): string {
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Dioptre powers are quoted with their sign ("+0.25"); a prism amount has none. */
const limitText = (rule: PowerRule, h: number) =>
  `${rule.step === 25 && h > 0 ? "+" : ""}${hundredthsText(h)}`;
const limits = (rule: PowerRule) => `${limitText(rule, rule.min)} and ${limitText(rule, rule.max)}`;

/**
 * The message for a power outside its rule, or undefined when it fits. A
 * value that is not a number, out of range or off-step each get their own
 * words, as a lab would say them.
 */
export function powerProblem(rule: PowerRule, hundredths: number): string | undefined {
  if (Number.isNaN(hundredths)) {
    return rule.step === 25
      ? `${rule.label} must be a number like -2.25 or +1.00`
      : `${rule.label} must be a number with at most two decimals`;
  }
  if (hundredths < rule.min || hundredths > rule.max) {
    return `${rule.label} must be between ${limits(rule)}`;
  }
  if (hundredths % rule.step !== 0) return `${rule.label} must be in steps of 0.25`;
  return undefined;
}

/** The axis as a whole degree, null when empty, NaN when not a whole number. */
export function parseAxis(input: string | number): number | null {
  const text = String(input).trim();
  if (text === "") return null;
  return /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
}

export const AXIS_RANGE_MESSAGE = `Axis must be a whole number from ${AXIS_MIN} to ${AXIS_MAX}`;
export const AXIS_REQUIRED_MESSAGE = "Axis is required when there is a cylinder";
export const AXIS_WITHOUT_CYLINDER_MESSAGE = "Axis is given only with a cylinder";

/** Axis is required exactly when the cylinder is not zero (an empty cylinder is zero). */
export function axisProblem(cylinder: number | null, axis: number | null): string | undefined {
  const hasCylinder = cylinder !== null && cylinder !== 0;
  if (axis !== null && (Number.isNaN(axis) || axis < AXIS_MIN || axis > AXIS_MAX)) {
    return AXIS_RANGE_MESSAGE;
  }
  if (hasCylinder && axis === null) return AXIS_REQUIRED_MESSAGE;
  if (!hasCylinder && axis !== null) return AXIS_WITHOUT_CYLINDER_MESSAGE;
  return undefined;
}

// ---- Display ----

/**
 * A signed power as opticians write it: sign and two decimals ("-2.25",
 * "+1.00"), "PL" (plano) for zero, an em dash when absent.
 */
export function formatPower(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const h = parseHundredths(value);
  if (h === null || Number.isNaN(h)) return value;
  if (h === 0) return "PL";
  return `${h > 0 ? "+" : "-"}${hundredthsText(Math.abs(h))}`;
}

/** A prism as "2.00 BU" (base up, down, in, out). */
export function formatPrism(amount: string | null, base: PrismBaseName | null): string {
  if (!amount || !base) return "—";
  const h = parseHundredths(amount);
  const text = h === null || Number.isNaN(h) ? amount : hundredthsText(h);
  return `${text} B${base[0].toUpperCase()}`;
}

export const formatAxis = (axis: number | null) => axis === null ? "—" : `${axis}°`;

/** One eye's sphere, cylinder and axis as stored (decimal strings). */
export interface SphCylAxis {
  sphere: string;
  cylinder: string | null;
  axis: number | null;
}

export type CylinderForm = "written" | "minus" | "plus";

/**
 * The same lens written in the other cylinder convention: sphere + cylinder,
 * the cylinder's sign flipped, the axis turned 90°. Only for display: the
 * prescription stays stored as written. Nothing to do without a cylinder or
 * when it is already in the asked form.
 */
export function transpose(eye: SphCylAxis, form: CylinderForm): SphCylAxis {
  const sph = parseHundredths(eye.sphere);
  const cyl = eye.cylinder === null ? null : parseHundredths(eye.cylinder);
  if (form === "written" || sph === null || Number.isNaN(sph) || !cyl || Number.isNaN(cyl)) {
    return eye;
  }
  if ((form === "minus" && cyl < 0) || (form === "plus" && cyl > 0)) return eye;
  const axis = eye.axis === null ? null : eye.axis <= 90 ? eye.axis + 90 : eye.axis - 90;
  return { sphere: hundredthsText(sph + cyl), cylinder: hundredthsText(-cyl), axis };
}

/** Expired once its expiry date has passed (dates as YYYY-MM-DD, `today` the store's day). */
export function isPrescriptionExpired(expiresOn: string | null, today: string): boolean {
  return expiresOn !== null && expiresOn < today;
}

/** Today in the server's (the store's, `TZ`) or the browser's local time, as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
