import type { DB } from "../db/database.ts";

/**
 * What the interface and everything a client receives show when a setting is
 * empty (the spec gives the store's name, phone, e-mail, address and logo a
 * built-in fallback each), so a client copy, PDF or e-mail never goes out
 * without a contact line. The settings screen shows them as placeholders.
 */
export const STORE_FALLBACKS = {
  storeName: "Lensdesk Optical",
  storePhone: "(555) 010-0100",
  storeEmail: "hello@lensdesk.example",
  storeAddress: "100 Main Street, Springfield",
  logoUrl: "/static/logo.svg",
  faviconUrl: "/static/favicon.svg",
} as const;

export function findSettings(db: DB) {
  return db.selectFrom("settings").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
}

export interface Branding {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  storeAddress: string;
  storeWebsite: string;
  logoUrl: string;
  /** The logo for print pages and the PDF: its print copy when it has one (else logoUrl). */
  logoPrintUrl?: string;
  faviconUrl: string;
}

const BRANDING_COLUMNS = [
  "storeName",
  "storePhone",
  "storeEmail",
  "storeAddress",
  "storeWebsite",
  "logoUrl",
  "logoPrintUrl",
  "faviconUrl",
] as const;

type BrandingRow = { [K in (typeof BRANDING_COLUMNS)[number]]: string | null };

function brandingFrom(s: BrandingRow): Branding {
  return {
    storeName: s.storeName?.trim() || STORE_FALLBACKS.storeName,
    storePhone: s.storePhone?.trim() || STORE_FALLBACKS.storePhone,
    storeEmail: s.storeEmail?.trim() || STORE_FALLBACKS.storeEmail,
    storeAddress: s.storeAddress?.trim() || STORE_FALLBACKS.storeAddress,
    storeWebsite: s.storeWebsite?.trim() ?? "",
    logoUrl: s.logoUrl?.trim() || STORE_FALLBACKS.logoUrl,
    // Only a copy made of the logo in use: a logo set some other way has none.
    logoPrintUrl: (s.logoUrl?.trim() && s.logoPrintUrl?.trim()) ||
      s.logoUrl?.trim() || STORE_FALLBACKS.logoUrl,
    faviconUrl: s.faviconUrl?.trim() || STORE_FALLBACKS.faviconUrl,
  };
}

/**
 * The settings row beside a store's row (migration 0036), for reads that show
 * a store's own setting where it sets one (coalesce(stores.x, settings.x))
 * and the chain's otherwise. Null joins no store: the chain's settings.
 */
export function settingsOfStore(db: DB, storeId: string | null) {
  return db.selectFrom("settings")
    .leftJoin("stores", (join) => join.on("stores.id", "=", storeId ?? NO_STORE))
    .where("settings.id", "=", 1);
}

/** An id no store has. */
const NO_STORE = "00000000-0000-0000-0000-000000000000";

/**
 * What a store shows of itself, its overrides in place of the chain's. The
 * logo goes with its print copy: a store's own logo never borrows the
 * chain's print copy.
 */
function brandingOfStore(db: DB, storeId: string | null) {
  return settingsOfStore(db, storeId)
    .select((eb) => [
      eb.fn.coalesce("stores.name", "settings.storeName").as("storeName"),
      eb.fn.coalesce("stores.phone", "settings.storePhone").as("storePhone"),
      eb.fn.coalesce("stores.email", "settings.storeEmail").as("storeEmail"),
      eb.fn.coalesce("stores.address", "settings.storeAddress").as("storeAddress"),
      eb.fn.coalesce("stores.website", "settings.storeWebsite").as("storeWebsite"),
      eb.fn.coalesce("stores.logoUrl", "settings.logoUrl").as("logoUrl"),
      eb.case().when("stores.logoUrl", "is not", null).then(eb.ref("stores.logoPrintUrl"))
        .else(eb.ref("settings.logoPrintUrl")).end().as("logoPrintUrl"),
      "settings.faviconUrl",
      "settings.smtpHost",
      "settings.smtpFromEmail",
      "settings.smtpUser",
    ]);
}

/** What a store shows of itself (null: the chain's settings, as the sign-in page shows them). */
export async function findBranding(db: DB, storeId: string | null): Promise<Branding> {
  return brandingFrom(await brandingOfStore(db, storeId).executeTakeFirstOrThrow());
}

/** What every page needs of the settings, read in one statement. */
export interface PageSettings {
  branding: Branding;
  /** A mail server and sender are set (the same rule as isMailConfigured). */
  mailConfigured: boolean;
}

export async function findPageSettings(db: DB, storeId: string | null): Promise<PageSettings> {
  const s = await brandingOfStore(db, storeId).executeTakeFirstOrThrow();
  return {
    branding: brandingFrom(s),
    mailConfigured: !!s.smtpHost?.trim() && !!(s.smtpFromEmail?.trim() || s.smtpUser?.trim()),
  };
}
