import type { DB } from "../db/database.ts";

/**
 * How many password-reset requests are allowed, per what, and in which window.
 * Per e-mail address typed and per client address, a request over the limit
 * is refused (429) whether or not the address belongs to an account, so the
 * refusal says nothing about it. Per account (reached by e-mail or by an
 * admin's "send reset e-mail"), a mail over the limit is not sent.
 */
export const RESET_LIMITS = {
  email: { max: 3, windowMs: 15 * 60_000 },
  ip: { max: 10, windowMs: 15 * 60_000 },
  user: { max: 5, windowMs: 60 * 60_000 },
} as const;
export type ResetLimitKind = keyof typeof RESET_LIMITS;

const LONGEST_WINDOW_MS = Math.max(...Object.values(RESET_LIMITS).map((l) => l.windowMs));

export const resetLimitKey = (kind: ResetLimitKind, value: string) =>
  `${kind}:${value.trim().toLowerCase()}`;

/**
 * Milliseconds until one more request is allowed, given the times (ms) of the
 * requests already counted for a key; 0 when one is allowed now. Pure.
 */
export function resetRetryAfterMs(kind: ResetLimitKind, times: number[], now: number): number {
  const { max, windowMs } = RESET_LIMITS[kind];
  const recent = times.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  if (recent.length < max) return 0;
  return recent[recent.length - max] + windowMs - now;
}

/**
 * Counts one request against each key unless one of them is over its limit,
 * in one transaction (a row lock per key, so two processes cannot both take
 * the last place). Returns the longest wait when refused, else 0.
 */
export async function takeResetAllowance(
  db: DB,
  keys: Array<{ kind: ResetLimitKind; value: string }>,
  now = new Date(),
): Promise<number> {
  return await db.transaction().execute(async (trx) => {
    const names = keys.map((k) => resetLimitKey(k.kind, k.value));
    // Serialises requests for the same keys across processes and engines.
    for (const name of [...names].sort()) {
      await trx.selectNoFrom((eb) =>
        eb.fn("pg_advisory_xact_lock", [eb.fn("hashtext", [eb.val(name)])]).as("locked")
      ).execute();
    }
    const rows = await trx.selectFrom("passwordResetRequests").select(["key", "at"])
      .where("key", "in", names)
      .where("at", ">", new Date(now.getTime() - LONGEST_WINDOW_MS))
      .execute();
    let wait = 0;
    keys.forEach((k, i) => {
      const times = rows.filter((r) => r.key === names[i]).map((r) => r.at.getTime());
      wait = Math.max(wait, resetRetryAfterMs(k.kind, times, now.getTime()));
    });
    if (wait > 0) return wait;
    await trx.insertInto("passwordResetRequests").values(names.map((key) => ({ key, at: now })))
      .execute();
    await trx.deleteFrom("passwordResetRequests")
      .where("at", "<=", new Date(now.getTime() - LONGEST_WINDOW_MS)).execute();
    return 0;
  });
}
