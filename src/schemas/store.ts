import * as z from "zod";
import { safeText } from "./text.ts";
import { storeIdsField } from "./users.ts";
import {
  closedDatesField,
  closingTimeField,
  email,
  openingDaysField,
  openingTimeField,
  text,
  timeZoneField,
} from "./settings.ts";

export const STORE_CODE_MESSAGE = "Code must be 1 to 8 letters or digits (e.g. DT or STORE2)";

/** A store's short code: upper-case letters and digits, as its numbers will carry it. */
export const storeCodeField = safeText({ error: STORE_CODE_MESSAGE, trim: true })
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{1,8}$/, STORE_CODE_MESSAGE));

/**
 * What a store sets of its own. Each field is an override of the chain's
 * setting (Settings): null, or an empty text, goes back to the chain's.
 */
const overrides = {
  name: text(100),
  phone: text(40),
  email,
  address: text(300, true),
  website: text(200),
  openingDays: openingDaysField.nullable(),
  closedDates: closedDatesField.nullable(),
  openingTime: openingTimeField.nullable(),
  closingTime: closingTimeField.nullable(),
  timeZone: timeZoneField.nullable(),
  readyEmailSubject: text(200),
  readyEmailBody: text(5000, true),
};

const hoursInOrder = (s: { openingTime?: string | null; closingTime?: string | null }) =>
  !s.openingTime || !s.closingTime || s.openingTime < s.closingTime;
const HOURS_ORDER = { message: "Closing time must be after opening time", path: ["closingTime"] };

/** The labs a store uses; empty: every active lab of the chain. */
const labIdsField = z.array(z.uuid({ error: "labIds must be lab ids" }), {
  error: "labIds must be a list of lab ids",
}).max(200, "A store uses at most 200 labs").transform((ids) => [...new Set(ids)]);

const overridesSchema = z.object({ ...overrides, labIds: labIdsField }).partial();

/** POST /api/admin/stores: a new store, its code and what it sets of its own. */
export const newStoreSchema = overridesSchema.extend({ code: storeCodeField })
  .refine(hoursInOrder, HOURS_ORDER);
export type NewStoreInput = z.infer<typeof newStoreSchema>;

/** PUT /api/admin/stores/{id}: any subset; absent fields are left alone. */
export const storeUpdateSchema = overridesSchema.extend({
  code: storeCodeField.optional(),
  active: z.boolean({ error: "active must be true or false" }).optional(),
}).refine(hoursInOrder, HOURS_ORDER);
export type StoreUpdateInput = z.infer<typeof storeUpdateSchema>;

/** PUT /api/admin/users/{id}/stores: the stores a user works in. */
export const userStoresSchema = z.object({ storeIds: storeIdsField });

/** PUT /api/stores/current: the store this device works in from now on. */
export const currentStoreSchema = z.object({
  storeId: z.uuid({ error: "storeId must be a store id" }),
});
