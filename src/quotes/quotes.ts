import type { DB } from "../db/database.ts";
import { carryOverLastMeasurements } from "./carry_over.ts";
import { isUuid } from "../db/ids.ts";

export const DEFAULT_FOOTER_MESSAGE =
  "This quote is valid for 30 days. Prices subject to change without notice.";

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a quote made now expires, by the store's settings (null: quotes never expire). */
export function quoteExpiry(
  settings: { quoteExpirationEnabled: boolean; quoteExpirationDays: number },
  now: Date,
): Date | null {
  if (!settings.quoteExpirationEnabled) return null;
  return new Date(now.getTime() + settings.quoteExpirationDays * DAY_MS);
}

/**
 * A new DRAFT quote for a client in a store, with one empty option so the
 * builder opens ready to fill; for a returning client that option starts from
 * the last quote's measurements (src/quotes/carry_over.ts). Runs inside the
 * caller's transaction when given one, else in its own.
 */
export async function insertDraftQuote(
  db: DB,
  clientId: string,
  createdBy: string | null,
  storeId: string,
  now = new Date(),
): Promise<{ id: string; quoteNumber: string }> {
  if (!db.isTransaction) {
    return await db.transaction().execute((trx) =>
      insertDraftQuote(trx, clientId, createdBy, storeId, now)
    );
  }
  const settings = await db.selectFrom("settings")
    .select(["quoteExpirationEnabled", "quoteExpirationDays", "footerMessage"])
    .where("id", "=", 1).executeTakeFirstOrThrow();
  const quote = await db.insertInto("quotes").values({
    clientId,
    storeId,
    status: "DRAFT",
    createdBy,
    footerMessage: settings.footerMessage?.trim() || DEFAULT_FOOTER_MESSAGE,
    expiresAt: quoteExpiry(settings, now),
    createdAt: now,
    updatedAt: now,
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
  const option = await db.insertInto("quoteOptions").values({ quoteId: quote.id, position: 0 })
    .returning("id").executeTakeFirstOrThrow();
  await carryOverLastMeasurements(db, clientId, quote.id, option.id);
  return quote;
}

/** The store a quote is made in; null for an unknown quote (then the chain's settings show). */
export async function findQuoteStoreId(db: DB, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const row = await db.selectFrom("quotes").select("storeId").where("id", "=", id)
    .executeTakeFirst();
  return row?.storeId ?? null;
}

/** Whether a quote exists (its history may be read); ids that are not UUIDs do not. */
export async function quoteExists(db: DB, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return !!await db.selectFrom("quotes").select("id").where("id", "=", id).executeTakeFirst();
}
