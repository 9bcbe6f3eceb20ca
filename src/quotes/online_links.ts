// The life of a quote's online link: made per e-mail send, stored
// only as the SHA-256 of its token, and good while the quote is as it was sent,
// open and unexpired, the link neither revoked nor spent, and not older than
// LINK_DAYS. The rules are pure (linkRefusal) so they are unit-tested.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { DB } from "../db/database.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { FINALIZABLE, isExpired } from "./rules.ts";

/** A link outlives no quote, and never a month: a forwarded old e-mail stops working. */
export const LINK_DAYS = 30;

/** 256 random bits, URL-safe; only its hash is stored. */
export function newLinkToken(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
}

export function linkTokenHash(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** What a token looks like (43 base64url characters); anything else is unknown at once. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type LinkRefusal =
  | "unknown"
  | "revoked"
  | "spent"
  | "changed"
  | "expired"
  | "closed"
  | "pending";

export interface LinkRow {
  id: string;
  quoteId: string;
  quoteVersion: number;
  expiresAt: Date;
  revokedAt: Date | null;
  spentAt: Date | null;
  lastViewedOn: string | null;
}

export interface LinkQuote {
  status: QuoteStatus;
  version: number;
  expiresAt: Date | null;
}

/**
 * Why this link may not be used now, or null when it may. Spent comes first
 * (the client who accepted sees that, whatever happened since), then what
 * staff did (revoke, close, finalize), then time, then a change of the quote.
 */
export function linkRefusal(link: LinkRow, quote: LinkQuote, now: Date): LinkRefusal | null {
  if (link.spentAt) return "spent";
  if (link.revokedAt) return "revoked";
  if (quote.status === "CLOSED" || quote.status === "FINALIZED") return "closed";
  if (link.expiresAt.getTime() <= now.getTime()) return "expired";
  if (isExpired(quote, now)) return "expired";
  if (quote.version !== link.quoteVersion) return "changed";
  // Saved while the client's measurements are incomplete: the store finishes them first.
  if (!FINALIZABLE.includes(quote.status)) return "pending";
  return null;
}

/** What the 410 page says for each refusal (unknown reads like an expired link). */
export const REFUSAL_TEXT: Record<LinkRefusal, { title: string; lead: string }> = {
  unknown: {
    title: "This link is no longer valid",
    lead: "This quote link has expired or is not valid.",
  },
  expired: {
    title: "This link is no longer valid",
    lead: "This quote link has expired or is not valid.",
  },
  revoked: {
    title: "This link was withdrawn",
    lead: "The store has withdrawn this quote link.",
  },
  spent: {
    title: "This quote was already accepted",
    lead: "This quote has already been accepted online, so the link is used up.",
  },
  changed: {
    title: "This quote has changed",
    lead: "This quote has changed since it was sent; the store will send you a new link.",
  },
  closed: {
    title: "This quote is no longer open",
    lead: "This quote has been closed or completed by the store.",
  },
  pending: {
    title: "This quote is not ready to accept",
    lead: "The store still needs to complete this quote before it can be accepted.",
  },
};

export const CHANGED_MESSAGE = "This quote has changed; the store will send you a new link.";

/** What the stored copy of a sent e-mail has where its online link's token was. */
export const REMOVED_TOKEN = "[link removed after sending]";

/**
 * The text with every online link's token taken out (`/q/{token}` becomes
 * `/q/[link removed after sending]`): the outbox keeps a sent e-mail's copy
 * this way, so the database never holds a working link in clear, only its
 * hash. The link itself keeps working for the client who received it.
 */
export function withoutLinkTokens(text: string): string {
  return text.replace(/\/q\/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, `/q/${REMOVED_TOKEN}`);
}

/** Makes the link of one send; returns the token, which goes into the e-mail and nowhere else. */
export async function createQuoteLink(
  db: DB,
  link: { quoteId: string; quoteVersion: number; sentTo: string; createdBy: string | null },
  now = new Date(),
): Promise<string> {
  const token = newLinkToken();
  await db.insertInto("quoteLinks").values({
    ...link,
    tokenHash: linkTokenHash(token),
    expiresAt: new Date(now.getTime() + LINK_DAYS * 86_400_000),
  }).execute();
  return token;
}

/**
 * The link and its quote by token. A malformed token runs the same one
 * statement with an impossible hash, so an unknown token costs what a known
 * one does and says nothing by its timing.
 */
export async function findLinkByToken(db: DB, token: string) {
  const hash = LINK_TOKEN_PATTERN.test(token) ? linkTokenHash(token) : "-";
  return await db.selectFrom("quoteLinks")
    .innerJoin("quotes", "quotes.id", "quoteLinks.quoteId")
    .select([
      "quoteLinks.id",
      "quoteLinks.quoteId",
      "quoteLinks.quoteVersion",
      "quoteLinks.expiresAt",
      "quoteLinks.revokedAt",
      "quoteLinks.spentAt",
      "quoteLinks.lastViewedOn",
      "quotes.status",
      "quotes.version",
      "quotes.expiresAt as quoteExpiresAt",
    ])
    .where("quoteLinks.tokenHash", "=", hash)
    .executeTakeFirst();
}

export type FoundLink = NonNullable<Awaited<ReturnType<typeof findLinkByToken>>>;

export const linkRowOf = (f: FoundLink): LinkRow => ({
  id: f.id,
  quoteId: f.quoteId,
  quoteVersion: f.quoteVersion,
  expiresAt: f.expiresAt,
  revokedAt: f.revokedAt,
  spentAt: f.spentAt,
  lastViewedOn: f.lastViewedOn,
});

export const linkQuoteOf = (f: FoundLink): LinkQuote => ({
  status: f.status,
  version: f.version,
  expiresAt: f.quoteExpiresAt,
});

/** The server's local day, as "today" is everywhere else (TZ). */
export function localDay(now: Date): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}
