// The stored answers of writes sent with an Idempotency-Key (migration 0024).
// The key's row is inserted in the transaction of the write it answers for:
// a replay that arrives while the first request is still running meets the
// uncommitted row in the primary key and waits for its commit (then answers
// from it) or its rollback (then runs as the first). Nothing else locks.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { gunzipSync, gzipSync } from "node:zlib";

/** How long an answer is kept: the browser gives up on a queued request well before. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How long a replay waits for the first request's transaction before a 409. */
export const REPLAY_WAIT = "10s";

export interface StoredAnswer {
  caller: string;
  bodySha256: string;
  status: number;
  answer: string;
}

/** Hex SHA-256 of a request body as sent. */
export async function bodyHash(body: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Takes the key inside `trx` (the write's transaction). Undefined when it is
 * ours to answer; otherwise the answer stored under it by a committed request.
 * An expired row is forgotten first, so its key counts as new.
 */
export async function claimKey(
  trx: DB,
  claim: { key: string; caller: string; bodySha256: string; now: Date },
): Promise<StoredAnswer | undefined> {
  await sql`SET LOCAL lock_timeout = ${sql.lit(REPLAY_WAIT)}`.execute(trx);
  const cutoff = new Date(claim.now.getTime() - IDEMPOTENCY_TTL_MS);
  await trx.deleteFrom("idempotencyKeys").where("key", "=", claim.key)
    .where("createdAt", "<=", cutoff).execute();
  const taken = await trx.insertInto("idempotencyKeys").values({
    key: claim.key,
    caller: claim.caller,
    bodySha256: claim.bodySha256,
    // Replaced by the answer before commit: no other request ever sees 0.
    status: 0,
    answer: "",
    createdAt: claim.now,
  }).onConflict((oc) => oc.column("key").doNothing()).returning("key").executeTakeFirst();
  if (taken) return undefined;
  const row = await trx.selectFrom("idempotencyKeys")
    .select(["caller", "bodySha256", "status", "answer", "answerGzip"])
    .where("key", "=", claim.key).executeTakeFirstOrThrow();
  return {
    caller: row.caller,
    bodySha256: row.bodySha256,
    status: row.status,
    answer: keptAnswerText(row),
  };
}

/** A kept answer's text: gzipped since migration 0032, plain in older rows. */
export function keptAnswerText(row: { answer: string; answerGzip: Uint8Array | null }): string {
  return row.answerGzip === null
    ? row.answer
    : new TextDecoder().decode(gunzipSync(row.answerGzip));
}

/**
 * The most a kept answer may take, gzipped. The largest answer the API can
 * give (a quote at every limit, 400 KB of JSON) takes 33 KB; the cap is a
 * guard, and an answer over it is kept as a short message saying the write
 * was done.
 */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;

export const ANSWER_NOT_KEPT = JSON.stringify({
  message: "This request was done already; its answer was too large to keep. " +
    "Reload to see the result.",
});

/** Keeps the write's answer under its key, gzipped, in the write's transaction. */
export async function storeAnswer(
  trx: DB,
  key: string,
  answer: { status: number; body: string },
): Promise<void> {
  let gzipped = gzipSync(answer.body);
  if (gzipped.byteLength > MAX_KEPT_ANSWER_BYTES) gzipped = gzipSync(ANSWER_NOT_KEPT);
  await trx.updateTable("idempotencyKeys")
    .set({ status: answer.status, answer: "", answerGzip: new Uint8Array(gzipped) })
    .where("key", "=", key).execute();
}

/** Deletes every answer older than a day; the number deleted. */
export async function deleteExpiredKeys(db: DB, now: Date): Promise<number> {
  const result = await db.deleteFrom("idempotencyKeys")
    .where("createdAt", "<=", new Date(now.getTime() - IDEMPOTENCY_TTL_MS)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** True for PostgreSQL's lock_not_available (55P03): the first request outlasted REPLAY_WAIT. */
export function isLockTimeout(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "55P03";
}
