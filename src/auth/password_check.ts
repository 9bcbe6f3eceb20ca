import type { Context } from "hono";
import { addressKey } from "../http/client_address.ts";
import type { AppEnv } from "../http/app_env.ts";
import { HttpError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit_log.ts";
import { verifyPassword } from "./password.ts";
import { type KnownDevice, readKnownDevice } from "./known_device.ts";
import { beginPasswordAttempt, deletePairFailures, type FailureKey } from "./password_failures.ts";
import { throttleFor, throttleMessage, withFailure } from "./password_throttle.ts";

/** What a password is being checked for; names the audit entries (`auth.{purpose}_failed`). */
export type PasswordPurpose = "login" | "change_password" | "kiosk_return" | "two_factor_replace";

export interface PasswordCheck {
  /** The name typed at sign-in, or the signed-in user's username. */
  username: string;
  /** The account when it exists. An unknown name is verified against a dummy hash and counted alike. */
  user: { id: string; username: string; passwordHash: string | null } | undefined;
  password: string;
  purpose: PasswordPurpose;
  /** The form field a 429 is shown on, e.g. "currentPassword". */
  field?: string;
}

export interface PasswordCheckResult {
  ok: boolean;
  /** The browser's device cookie as read for this check (to be extended after a sign-in). */
  device: KnownDevice | undefined;
}

/**
 * The one way to check a password anywhere in the app: staff sign-in, the
 * current password of a password change, a kiosk handing back to staff, and
 * any later check. It throttles (a 429 with Retry-After, thrown), verifies,
 * records the failure in the shared counters and audits failures and the
 * lockouts they start. Database work per check: one short transaction
 * (lock, record and read), plus one delete after a right password, plus the
 * audit rows of a failure.
 */
export async function checkPassword(
  c: Context<AppEnv>,
  check: PasswordCheck,
): Promise<PasswordCheckResult> {
  const { db, clientIp } = c.var;
  const device = await readKnownDevice(c);
  const knownDevice = !!check.user && !!device?.userIds.includes(check.user.id);
  const key: FailureKey = {
    account: check.user ? `user:${check.user.id}` : `name:${check.username.toLowerCase()}`,
    // An IPv6 caller counts by its /64 (src/http/client_address.ts).
    source: knownDevice ? `device:${device!.id}` : `ip:${addressKey(clientIp)}`,
    address: addressKey(clientIp),
    knownDevice,
  };
  const actor = { id: check.user?.id ?? null, label: check.user?.username ?? check.username };
  const now = Date.now();
  const { history, refused: throttled } = await beginPasswordAttempt(
    db,
    key,
    check.purpose,
    now,
    (h) => throttleFor(h, knownDevice, now),
  );
  if (throttled) {
    const message = throttleMessage(
      throttled.retryAfterMs,
      check.purpose === "login" || check.purpose === "kiosk_return" ? "sign-in" : "password",
    );
    throw new HttpError(429, message, check.field ? { [check.field]: message } : undefined, {
      "Retry-After": String(Math.ceil(throttled.retryAfterMs / 1000)),
    });
  }

  if (await verifyPassword(check.user?.passwordHash, check.password)) {
    await deletePairFailures(db, key);
    return { ok: true, device };
  }

  // The failure is already recorded (the attempt's row). Audit it, and a lock it starts.
  await recordAudit(db, actor, `auth.${check.purpose}_failed`, "user", actor.id, {
    ip: clientIp,
    knownDevice,
  });
  const lock = throttleFor(withFailure(history, knownDevice, now), knownDevice, now);
  if (lock) {
    await recordAudit(db, actor, "auth.lockout", "user", actor.id, {
      purpose: check.purpose,
      scope: lock.scope,
      ip: clientIp,
      knownDevice,
      retryAfterSeconds: Math.ceil(lock.retryAfterMs / 1000),
    });
    c.var.logger.log("warn", "password checks locked", {
      account: actor.label,
      scope: lock.scope,
      ip: clientIp,
    });
  }
  return { ok: false, device };
}
