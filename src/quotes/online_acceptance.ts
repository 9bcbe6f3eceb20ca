// The client's answers through an online link: the first view of
// each day, the acceptance (one transaction: choices, FINALIZED, signer, link
// spent) and the decline (a message; the quote stays for staff).
import { sql } from "kysely";
import { decodeBase64 } from "@oslojs/encoding";
import type { DB } from "../db/database.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { imageSize } from "../uploads/image_size.ts";
import { sniffImage } from "../uploads/image_rules.ts";
import { pngProblem } from "../pdf/image_check.ts";
import {
  findLinkByToken,
  type FoundLink,
  linkQuoteOf,
  type LinkRefusal,
  linkRefusal,
  linkRowOf,
  localDay,
} from "./online_links.ts";
import { optionName } from "./history.ts";
import { acceptanceTerms } from "../settings/acceptance_terms.ts";
import { statusChange } from "./quote_writes.ts";
import { type OnlineAcceptInput, SIGNATURE_DATA_URL_PREFIX } from "../schemas/online_acceptance.ts";

/** The client as the history names them: the signer, or "client (online)". */
export const onlineActor = (name?: string): AuditActor => ({
  id: null,
  label: name ? `${name} (online)` : "client (online)",
});

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

/** A pad signature: at most this many bytes and pixels. */
export const MAX_SIGNATURE_BYTES = 200_000;
export const MAX_SIGNATURE_SIDE = 2000;

const UNREADABLE_SIGNATURE = "The signature image could not be read";

/**
 * The PNG's bytes, or a message saying why it is refused. It is decoded whole
 * here, before anything is written: a signature the signed copy's PDF cannot
 * draw would leave the client an acceptance whose copy can never be made.
 */
export function readSignaturePng(dataUrl: string): Uint8Array | string {
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(dataUrl.slice(SIGNATURE_DATA_URL_PREFIX.length));
  } catch {
    return UNREADABLE_SIGNATURE;
  }
  if (bytes.length > MAX_SIGNATURE_BYTES) return "The signature image is too large";
  if (sniffImage(bytes) !== "png") return "The signature must be a PNG image";
  const size = imageSize("png", bytes);
  if (!size || size.width > MAX_SIGNATURE_SIDE || size.height > MAX_SIGNATURE_SIDE) {
    return "The signature image is too large";
  }
  return pngProblem(bytes, MAX_SIGNATURE_SIDE) ? UNREADABLE_SIGNATURE : bytes;
}

/**
 * The first opening of a valid link on each local day writes "Viewed by the
 * client" to the history and marks the quote viewed. The conditional update
 * lets only one of two simultaneous first views write the entry.
 */
export async function recordLinkView(db: DB, found: FoundLink, now = new Date()): Promise<void> {
  const today = localDay(now);
  if (found.lastViewedOn === today) return;
  await db.transaction().execute(async (trx) => {
    const claimed = await trx.updateTable("quoteLinks").set({ lastViewedOn: today })
      .where("id", "=", found.id)
      .where((eb) => eb.or([eb("lastViewedOn", "is", null), eb("lastViewedOn", "!=", today)]))
      .returning("id").executeTakeFirst();
    if (!claimed) return;
    // Not a change of the quote: its version stays, so the link stays good.
    await trx.updateTable("quotes").set({ clientViewedAt: now })
      .where("id", "=", found.quoteId).execute();
    await recordAudit(trx, onlineActor(), "quote.viewed_online", "quote", found.quoteId, {});
  });
}

export type OnlineResult =
  | { ok: true; already: boolean; quoteId: string; signerName: string; acceptedAt: Date }
  | { ok: false; status: 400 | 409 | 410; refusal?: LinkRefusal; message: string; field?: string };

export type DeclineResult =
  | { ok: true; quoteId: string }
  | { ok: false; status: 409 | 410; refusal?: LinkRefusal; message: string };

/** The link by token, locked with its quote for the rest of the transaction. */
async function lockLink(trx: DB, token: string) {
  const found = await findLinkByToken(trx, token);
  if (!found) return undefined;
  await trx.selectFrom("quotes").select("id").where("id", "=", found.quoteId).forUpdate()
    .execute();
  // Read again under the lock: a save or a second accept may have committed meanwhile.
  return await findLinkByToken(trx, token);
}

/** Accepts the quote behind `token`; a replay of an accepted link answers its acceptance. */
export async function acceptOnline(
  db: DB,
  token: string,
  input: OnlineAcceptInput,
  meta: ClientMeta,
  now = new Date(),
): Promise<OnlineResult> {
  let png: Uint8Array | null = null;
  if (input.signaturePng !== null) {
    const read = readSignaturePng(input.signaturePng);
    if (typeof read === "string") {
      return { ok: false, status: 400, message: read, field: "signaturePng" };
    }
    png = read;
  }
  if (!png && !input.typedSignature) {
    return { ok: false, status: 400, message: "Please sign", field: "signaturePng" };
  }
  return await db.transaction().execute(async (trx): Promise<OnlineResult> => {
    const found = await lockLink(trx, token);
    if (!found) return refused("unknown");
    const refusal = linkRefusal(linkRowOf(found), linkQuoteOf(found), now);
    if (refusal === "spent") {
      const done = await trx.selectFrom("quoteAcceptances")
        .select(["signerName", "acceptedAt"])
        .where("linkId", "=", found.id).executeTakeFirst();
      if (done) {
        return { ok: true, already: true, quoteId: found.quoteId, ...done };
      }
    }
    if (refusal) return refused(refusal);
    const options = await trx.selectFrom("quoteOptions").select(["id", "label", "position"])
      .where("quoteId", "=", found.quoteId).orderBy("position").execute();
    const own = new Set(options.map((o) => o.id));
    const chosen = new Set(input.chosenOptionIds);
    if ([...chosen].some((id) => !own.has(id))) {
      return {
        ok: false,
        status: 400,
        message: "An option does not belong to this quote",
        field: "chosenOptionIds",
      };
    }
    for (const option of options) {
      await trx.updateTable("quoteOptions").set({ isChosen: chosen.has(option.id) })
        .where("id", "=", option.id).execute();
    }
    await trx.updateTable("quotes").set({
      status: "FINALIZED",
      finalizedAt: now,
      acceptedAt: sql<Date>`coalesce(accepted_at, ${now})`,
      version: found.version + 1,
      updatedAt: now,
    }).where("id", "=", found.quoteId).execute();
    // The terms as the page showed them, for the signed copy.
    const settings = await trx.selectFrom("settings").select("acceptanceTermsText")
      .where("id", "=", 1).executeTakeFirstOrThrow();
    await trx.insertInto("quoteAcceptances").values({
      quoteId: found.quoteId,
      linkId: found.id,
      signerName: input.signerName,
      signaturePng: png,
      typedSignature: png === null,
      chosenOptionIds: sql`${JSON.stringify([...chosen])}::text::jsonb`,
      acceptedAt: now,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      termsText: acceptanceTerms(settings.acceptanceTermsText),
    }).execute();
    await trx.updateTable("quoteLinks").set({ spentAt: now }).where("id", "=", found.id)
      .execute();
    await recordAudit(
      trx,
      onlineActor(input.signerName),
      "quote.accept_online",
      "quote",
      found.quoteId,
      {
        ...statusChange(found.status, "FINALIZED"),
        signer: input.signerName,
        signature: png ? "drawn" : "typed",
        chosen: options.map((o, i) => ({ o, i })).filter(({ o }) => chosen.has(o.id))
          .map(({ o, i }) => optionName(o, i)),
        ip: meta.ip,
      },
    );
    return {
      ok: true,
      already: false,
      quoteId: found.quoteId,
      signerName: input.signerName,
      acceptedAt: now,
    };
  });
}

/** Records a decline; the quote itself is left for staff to act on. */
export async function declineOnline(
  db: DB,
  token: string,
  message: string,
  meta: ClientMeta,
  now = new Date(),
): Promise<DeclineResult> {
  return await db.transaction().execute(async (trx): Promise<DeclineResult> => {
    const found = await lockLink(trx, token);
    if (!found) return refused("unknown");
    const refusal = linkRefusal(linkRowOf(found), linkQuoteOf(found), now);
    if (refusal) return refused(refusal);
    await trx.insertInto("quoteDeclines").values({
      quoteId: found.quoteId,
      linkId: found.id,
      message,
      declinedAt: now,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
    }).execute();
    await recordAudit(trx, onlineActor(), "quote.decline_online", "quote", found.quoteId, {
      message: message || null,
      ip: meta.ip,
    });
    return { ok: true, quoteId: found.quoteId };
  });
}

function refused(refusal: LinkRefusal) {
  return refusal === "changed"
    ? {
      ok: false as const,
      status: 409 as const,
      refusal,
      message: "This quote has changed; the store will send you a new link.",
    }
    : {
      ok: false as const,
      status: 410 as const,
      refusal,
      message: "This link is no longer valid",
    };
}

/** Staff's "Revoke online links": every unspent, unrevoked link of the quote stops working. */
export async function revokeQuoteLinks(
  db: DB,
  quoteId: string,
  actor: AuditActor,
  now = new Date(),
): Promise<number> {
  return await db.transaction().execute(async (trx) => {
    const revoked = await trx.updateTable("quoteLinks").set({ revokedAt: now })
      .where("quoteId", "=", quoteId).where("revokedAt", "is", null).where("spentAt", "is", null)
      .returning("id").execute();
    if (revoked.length) {
      await recordAudit(trx, actor, "quote.links_revoked", "quote", quoteId, {
        count: revoked.length,
      });
    }
    return revoked.length;
  });
}
