import type { DB } from "../db/database.ts";

/** What the interface shows when a setting is empty. */
export const STORE_FALLBACKS = {
  storeName: "Lensdesk Optical",
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
  faviconUrl: string;
}

export async function findBranding(db: DB): Promise<Branding> {
  const s = await db.selectFrom("settings")
    .select([
      "storeName",
      "storePhone",
      "storeEmail",
      "storeAddress",
      "storeWebsite",
      "logoUrl",
      "faviconUrl",
    ])
    .where("id", "=", 1).executeTakeFirstOrThrow();
  return {
    storeName: s.storeName?.trim() || STORE_FALLBACKS.storeName,
    storePhone: s.storePhone?.trim() ?? "",
    storeEmail: s.storeEmail?.trim() ?? "",
    storeAddress: s.storeAddress?.trim() ?? "",
    storeWebsite: s.storeWebsite?.trim() ?? "",
    logoUrl: s.logoUrl?.trim() || STORE_FALLBACKS.logoUrl,
    faviconUrl: s.faviconUrl?.trim() || STORE_FALLBACKS.faviconUrl,
  };
}
