import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app_env.ts";
import { HttpError } from "./errors.ts";
import { isUuid } from "../db/ids.ts";
import {
  bodyHash,
  claimKey,
  deleteExpiredKeys,
  isLockTimeout,
  storeAnswer,
} from "../idempotency/key_store.ts";

/** A write that honours Idempotency-Key: its method and path. */
export interface IdempotentRoute {
  method: string;
  path: RegExp;
}

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const KEY_REUSED_MESSAGE =
  "This Idempotency-Key was already used for a different request. Send a new key with a new request.";
export const STILL_RUNNING_MESSAGE =
  "The first request with this Idempotency-Key is still being processed. Please try again in a moment.";

/** How often a process clears out expired keys (on the next keyed write after it). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** Thrown inside the write's transaction to roll it back when its answer is a refusal. */
class NotStored extends Error {}

/**
 * Answers a write sent with an Idempotency-Key once: the first request runs in
 * one transaction with the key's row and its answer is stored there; a replay
 * (same key, same caller, same route and body) gets that answer and writes
 * nothing; the same key on another route, with another body or from another
 * caller is a 422. A refusal (any
 * status but 2xx) is not stored: its transaction rolls back with the key, so
 * the corrected or repeated request runs afresh. Without the header a write
 * runs as it always did.
 */
export function idempotentWrites(
  routes: readonly IdempotentRoute[],
  now: () => Date = () => new Date(),
): MiddlewareHandler<AppEnv> {
  let sweptAt = 0;
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return await next();
    const method = c.req.method;
    if (!routes.some((r) => r.method === method && r.path.test(c.req.path))) {
      return await next();
    }
    if (!isUuid(key)) {
      throw new HttpError(400, "Idempotency-Key must be a UUID", {
        [IDEMPOTENCY_HEADER]: "Idempotency-Key must be a UUID",
      });
    }
    const db = c.var.db;
    const at = now();
    if (at.getTime() - sweptAt >= SWEEP_EVERY_MS) {
      sweptAt = at.getTime();
      await deleteExpiredKeys(db, at).catch((err) =>
        c.var.logger.log("warn", "idempotency: expired keys not deleted", { error: String(err) })
      );
    }
    // The request's fingerprint: its method, path and body (a clone: the route
    // reads the body itself). A key sent again to another route, or with
    // another body, is not a replay of the first request: a 422, never its answer.
    const bodySha256 = await bodyHash(
      `${method} ${c.req.path}\n${await c.req.raw.clone().text()}`,
    );
    const caller = c.var.user
      ? `user:${c.var.user.id}`
      : c.var.kiosk
      ? `kiosk:${c.var.kiosk.id}`
      : `ip:${c.var.clientIp}`;
    let replay: Response | undefined;
    try {
      await db.transaction().execute(async (trx) => {
        const stored = await claimKey(trx, { key, caller, bodySha256, now: at });
        if (stored) {
          if (stored.caller !== caller || stored.bodySha256 !== bodySha256) {
            throw new HttpError(422, KEY_REUSED_MESSAGE, {
              [IDEMPOTENCY_HEADER]: KEY_REUSED_MESSAGE,
            });
          }
          replay = new Response(stored.answer, {
            status: stored.status,
            headers: {
              "Content-Type": "application/json; charset=UTF-8",
              "Idempotent-Replayed": "true",
            },
          });
          return;
        }
        c.set("db", trx);
        try {
          await next();
        } finally {
          c.set("db", db);
        }
        // Hono has already turned a thrown error into its answer (c.error).
        if (c.error || c.res.status < 200 || c.res.status > 299) throw new NotStored();
        await storeAnswer(trx, key, { status: c.res.status, body: await c.res.clone().text() });
      });
    } catch (err) {
      if (err instanceof NotStored) return;
      if (isLockTimeout(err)) {
        // Retry-After tells the tablet to send it again rather than give up.
        throw new HttpError(409, STILL_RUNNING_MESSAGE, undefined, { "Retry-After": "1" });
      }
      throw err;
    }
    if (replay) c.res = replay;
  };
}
