import * as z from "zod";
import { isCalendarDate } from "./calendar_date.ts";
import { US_STATE_CODES } from "./us_states.ts";
import { multilineText, safeText, uuidField } from "./text.ts";
import {
  type ClientFormValues,
  EMAIL_INVALID,
  EMAIL_PATTERN,
  emptyClientForm,
  FIRST_NAME_REQUIRED,
  LAST_NAME_REQUIRED,
} from "./client_form.ts";

// The form's values and the intake's quick checks live in a zod-free module
// (client_form.ts) so the intake page need not ship zod.
export { type ClientFormValues, emptyClientForm };

// Small pieces, composed per form (intake, add, edit, e-mail only).
const optionalText = (max: number) =>
  safeText({ trim: true }).max(max, `Must be at most ${max} characters`).nullish().transform((v) =>
    v ? v : null
  );

export const firstNameField = safeText({ error: FIRST_NAME_REQUIRED, trim: true })
  .min(1, FIRST_NAME_REQUIRED).max(100, "First name must be at most 100 characters");
export const lastNameField = safeText({ error: LAST_NAME_REQUIRED, trim: true })
  .min(1, LAST_NAME_REQUIRED).max(100, "Last name must be at most 100 characters");

/** A valid address or empty (empty becomes null). */
export const emailField = safeText({ trim: true }).max(254).nullish().transform((v) => v || null)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: EMAIL_INVALID }).nullable());

const phoneField = safeText({ trim: true }).max(40, "Phone must be at most 40 characters").nullish()
  .transform((v) => v || null)
  .refine((v) => v === null || /^[0-9+().\-\s]*[0-9][0-9+().\-\s]*$/.test(v), {
    message: "Please enter a phone number using digits",
  });

/** YYYY-MM-DD, a real past date; empty becomes null. */
export const dobField = z.union([safeText(), z.null()]).optional().transform((v) =>
  v?.trim() || null
)
  .refine((v) => {
    if (v === null) return true;
    return isCalendarDate(v) && Date.parse(`${v}T00:00:00Z`) <= Date.now();
  }, { message: "Please enter a valid date of birth" });

const stateField = safeText({ trim: true }).toUpperCase().nullish().transform((v) => v || null)
  .refine((v) => v === null || US_STATE_CODES.includes(v), {
    message: "Please choose a US state",
  });

/** The personal and address fields shared by intake, add and edit. */
export const clientFieldsSchema = z.object({
  firstName: firstNameField,
  middleName: optionalText(100),
  lastName: lastNameField,
  dob: dobField,
  email: emailField,
  homePhone: phoneField,
  mobilePhone: phoneField,
  address1: optionalText(200),
  address2: optionalText(200),
  city: optionalText(100),
  state: stateField,
  zip: optionalText(20),
});

// The zod-free form (client_form.ts) lists the same fields: both directions
// must hold, or one of the two has a field the other lacks.
type SchemaFields = keyof z.input<typeof clientFieldsSchema>;
type FormFields = keyof ClientFormValues;
const _sameFields: [SchemaFields, FormFields] extends [FormFields, SchemaFields] ? true : never =
  true;

/** Intake and Add New Client: the fields plus how they heard of us and consent. */
export const createClientSchema = clientFieldsSchema.extend({
  heardHowId: z.union([uuidField("Please choose an option from the list"), z.literal("other")])
    .nullable().optional().or(z.literal("").transform(() => null)),
  heardHowText: optionalText(200),
  smsConsent: z.boolean().optional().default(false),
  emailConsent: z.boolean().optional().default(false),
});
export type CreateClientInput = z.infer<typeof createClientSchema>;

/** Edit: the same fields, all of them or the e-mail alone (the e-mail dialog). */
/** A client's home store (a chain's): the store they belong to first. */
export const homeStoreSchema = z.object({
  homeStoreId: z.uuid({ error: "homeStoreId must be a store id" }),
}).strict();

export const updateClientSchema = z.union([
  clientFieldsSchema,
  z.object({ email: emailField }).strict(),
  homeStoreSchema,
]);
export type UpdateClientInput = z.infer<typeof updateClientSchema>;

/** A pupillary distance in mm: 0 (not measured) to 90, at most one decimal. */
export const pdField = z.union([safeText(), z.number()]).transform((v, ctx) => {
  const text = String(v).trim();
  if (text === "") return "0";
  if (!/^\d{1,2}(\.\d)?$/.test(text) || Number(text) > 90) {
    ctx.addIssue({
      code: "custom",
      message: "Enter a pupillary distance in millimetres between 0 and 90 (e.g. 62 or 62.5)",
    });
    return z.NEVER;
  }
  return String(Number(text));
});

export const PD_REQUIRED_FOR_COMPLETE = "PD Distance is required to mark measurements as complete";

// Complete measurements move the client's quotes out of Pending Measurements,
// after which lenses may be ordered: not without a distance PD. The same
// schema runs in both measurement dialogs, so they say so before sending.
export const measurementsSchema = z.object({
  pdBinocular: pdField,
  pdNear: pdField,
  measurementsComplete: z.boolean({ error: "measurementsComplete must be true or false" }),
}).superRefine((m, ctx) => {
  if (m.measurementsComplete && !(Number(m.pdBinocular) > 0)) {
    ctx.addIssue({ code: "custom", path: ["pdBinocular"], message: PD_REQUIRED_FOR_COMPLETE });
  }
});
export type MeasurementsInput = z.infer<typeof measurementsSchema>;

/** POST /api/consent accepts either name the spec gives each field. */
export const consentSchema = z.object({
  clientId: uuidField("clientId must be a client id"),
  type: z.enum(["SMS", "EMAIL"]).optional(),
  consentType: z.enum(["SMS", "EMAIL"]).optional(),
  statement: multilineText({ trim: true }).min(1).max(2000).optional(),
  consentText: multilineText({ trim: true }).min(1).max(2000).optional(),
  target: safeText({ trim: true }).min(1, "target is required").max(254),
  consentGiven: z.boolean().optional().default(true),
}).transform((c, ctx) => {
  const type = c.type ?? c.consentType;
  const statement = c.statement ?? c.consentText;
  if (!type) ctx.addIssue({ code: "custom", path: ["type"], message: "type must be SMS or EMAIL" });
  if (!statement) {
    ctx.addIssue({ code: "custom", path: ["statement"], message: "statement is required" });
  }
  return {
    clientId: c.clientId,
    type: type!,
    statement: statement!,
    target: c.target,
    consentGiven: c.consentGiven,
  };
});
export type ConsentInput = z.infer<typeof consentSchema>;

export const createQuoteSchema = z.object({ clientId: uuidField("clientId must be a client id") });
