// The Stores page's form (islands/StoresAdmin.tsx): a store's code and what
// it sets of its own, as typed. A blank text field, and a null list, is "the
// chain's setting": it is sent as null, which the server stores as null.
import type { StoreView } from "../../src/stores/admin_stores.ts";

/** The chain's settings a store's field falls back to, as shown (Settings' values). */
export interface ChainDefaults {
  name: string;
  phone: string;
  email: string;
  address: string;
  website: string;
  timeZone: string;
  openingDays: string;
  openingTime: string;
  closingTime: string;
  closedDates: string;
  readyEmailSubject: string;
  readyEmailBody: string;
  logoUrl: string;
}

/** The overrides kept as text: blank is the chain's. */
export const TEXT_OVERRIDES = [
  "name",
  "phone",
  "email",
  "address",
  "website",
  "timeZone",
  "openingTime",
  "closingTime",
  "readyEmailSubject",
  "readyEmailBody",
] as const;
export type TextOverride = (typeof TEXT_OVERRIDES)[number];

export type StoreDraft = Record<TextOverride, string> & {
  code: string;
  /** "1,2,3" or null: the chain's opening days. */
  openingDays: string | null;
  /** "2026-12-25,…" or null: the chain's closed dates. */
  closedDates: string | null;
  active: boolean;
  /** The labs the store uses; none: every active lab. */
  labIds: string[];
};

export const EMPTY_STORE: StoreDraft = {
  code: "",
  name: "",
  phone: "",
  email: "",
  address: "",
  website: "",
  timeZone: "",
  openingTime: "",
  closingTime: "",
  readyEmailSubject: "",
  readyEmailBody: "",
  openingDays: null,
  closedDates: null,
  active: true,
  labIds: [],
};

export function toDraft(store: StoreView): StoreDraft {
  const draft = { ...EMPTY_STORE, code: store.code, active: store.active };
  for (const key of TEXT_OVERRIDES) draft[key] = store[key] ?? "";
  draft.openingDays = store.openingDays;
  draft.closedDates = store.closedDates;
  draft.labIds = store.labIds;
  return draft;
}

/**
 * What the API is sent: every override (null for the chain's), and the code
 * only where the sender may change it (`chainWide`). Active is the table's
 * own action (Deactivate asks first).
 */
export function toBody(draft: StoreDraft, o: { adding: boolean; chainWide: boolean }) {
  const body: Record<string, unknown> = {};
  for (const key of TEXT_OVERRIDES) body[key] = draft[key].trim() === "" ? null : draft[key];
  body.openingDays = draft.openingDays;
  body.closedDates = draft.closedDates;
  body.labIds = draft.labIds;
  if (o.adding || o.chainWide) body.code = draft.code;
  return body;
}

export const WEEKDAYS = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
];

/** "1,2,3,4,5" → "Mon, Tue, Wed, Thu, Fri". */
export const daysText = (days: string) =>
  days.split(",").filter(Boolean).map((d) => WEEKDAYS[Number(d)]?.slice(0, 3)).join(", ");

/** A store's name as lists show it: its own, else the chain's. */
export const storeName = (store: Pick<StoreView, "name">, chain: ChainDefaults) =>
  store.name ?? chain.name;
