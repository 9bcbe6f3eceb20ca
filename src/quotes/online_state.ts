// What staff see of a quote's online side: how many links still work, when
// the client last looked, the acceptance and any declines.
import type { DB } from "../db/database.ts";
import { FINALIZABLE } from "./rules.ts";

export interface OnlineState {
  /** Links neither revoked nor spent nor past their date (a change may still have staled them). */
  liveLinks: number;
  viewedAt: string | null;
  acceptance: {
    signerName: string;
    acceptedAt: string;
    typedSignature: boolean;
    /** Why the signed copy cannot be made or was not e-mailed to the client, when so. */
    signedCopyProblem: string | null;
  } | null;
  declines: { message: string; declinedAt: string }[];
}

export async function findOnlineState(db: DB, quoteId: string, now = new Date()) {
  const [quote, links, acceptance, declines] = await Promise.all([
    db.selectFrom("quotes").select(["status", "version", "clientViewedAt"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow(),
    db.selectFrom("quoteLinks").select(["quoteVersion"])
      .where("quoteId", "=", quoteId).where("revokedAt", "is", null).where("spentAt", "is", null)
      .where("expiresAt", ">", now).execute(),
    db.selectFrom("quoteAcceptances")
      .select(["signerName", "acceptedAt", "typedSignature", "signedCopyProblem"])
      .where("quoteId", "=", quoteId).executeTakeFirst(),
    db.selectFrom("quoteDeclines").select(["message", "declinedAt"])
      .where("quoteId", "=", quoteId).orderBy("declinedAt", "desc").limit(20).execute(),
  ]);
  const usable = FINALIZABLE.includes(quote.status)
    ? links.filter((l) => l.quoteVersion === quote.version).length
    : 0;
  return {
    liveLinks: usable,
    viewedAt: quote.clientViewedAt ? new Date(quote.clientViewedAt).toISOString() : null,
    acceptance: acceptance
      ? {
        signerName: acceptance.signerName,
        acceptedAt: new Date(acceptance.acceptedAt).toISOString(),
        typedSignature: acceptance.typedSignature,
        signedCopyProblem: acceptance.signedCopyProblem,
      }
      : null,
    declines: declines.map((d) => ({
      message: d.message,
      declinedAt: new Date(d.declinedAt).toISOString(),
    })),
  } satisfies OnlineState;
}
