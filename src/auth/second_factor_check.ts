import type { Context } from "hono";
import { addressKey } from "../http/client_address.ts";
import type { AppEnv } from "../http/app_env.ts";
import { HttpError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit_log.ts";
import { readKnownDevice } from "./known_device.ts";
import {
  beginSecondFactorAttempt,
  deletePairFailures,
  type FailureKey,
  SECOND_FACTOR_PURPOSE,
} from "./password_failures.ts";
import {
  secondFactorThrottle,
  secondFactorThrottleMessage,
  withSecondFactorFailure,
} from "./second_factor_throttle.ts";
import { verifySecondFactor } from "./two_factor.ts";

/** What the code is checked for: sign-in, turning it off, replacing it. Recorded in the audit. */
export type SecondFactorPurpose = "sign_in" | "turn_off" | "replace" | "recovery_codes";

/**
 * The one way to check a second-factor code anywhere in the app, as
 * checkPassword is for passwords: it throttles (a 429 with Retry-After,
 * thrown) by the wrong codes of this account in the shared table, across
 * challenges and processes, verifies (a code of a step already used, or a
 * used recovery code, never passes again), and audits each wrong code and the
 * lock it starts. Returns what passed, or null for a wrong code.
 */
export async function checkSecondFactor(
  c: Context<AppEnv>,
  user: { id: string; username: string },
  code: string,
  purpose: SecondFactorPurpose,
  field = "code",
): Promise<"totp" | "recovery" | null> {
  const { db, clientIp, config } = c.var;
  const device = await readKnownDevice(c);
  const knownDevice = !!device?.userIds.includes(user.id);
  const key: FailureKey = {
    account: `user:${user.id}`,
    // An IPv6 caller counts by its /64 (src/http/client_address.ts).
    source: knownDevice ? `device:${device!.id}` : `ip:${addressKey(clientIp)}`,
    address: addressKey(clientIp),
    knownDevice,
  };
  const now = Date.now();
  const { history, refused } = await beginSecondFactorAttempt(
    db,
    key,
    now,
    (h) => secondFactorThrottle(h, knownDevice, now),
  );
  if (refused) {
    const message = secondFactorThrottleMessage(refused);
    throw new HttpError(429, message, { [field]: message }, {
      "Retry-After": String(Math.ceil(refused.retryAfterMs / 1000)),
    });
  }
  // The code is checked against the app's clock (the real one but in tests
  // that move time on, e.g. to the next 30-second step instead of waiting).
  const used = await verifySecondFactor(
    db,
    config.secretKey,
    user.id,
    code,
    c.var.clock().getTime(),
  );
  if (used) {
    await deletePairFailures(db, key, SECOND_FACTOR_PURPOSE);
    return used;
  }
  const actor = { id: user.id, label: user.username };
  await recordAudit(db, actor, "auth.two_factor_failed", "user", user.id, {
    ip: clientIp,
    knownDevice,
    step: purpose,
  });
  const lock = secondFactorThrottle(
    withSecondFactorFailure(history, knownDevice, now),
    knownDevice,
    now,
  );
  if (lock) {
    await recordAudit(db, actor, "auth.lockout", "user", user.id, {
      purpose: SECOND_FACTOR_PURPOSE,
      scope: lock.scope,
      ip: clientIp,
      knownDevice,
      retryAfterSeconds: Math.ceil(lock.retryAfterMs / 1000),
    });
    c.var.logger.log("warn", "second-factor checks locked", {
      account: user.username,
      scope: lock.scope,
      ip: clientIp,
    });
  }
  return null;
}
