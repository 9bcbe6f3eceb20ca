import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError, readJson, unauthorized } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { auditActor } from "../../src/http/actor.ts";
import { findUserById } from "../../src/users/users.ts";
import { findBranding } from "../../src/settings/settings.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import {
  replaceTwoFactorSchema,
  secondFactorSchema,
  totpCodeSchema,
  twoFactorPolicySchema,
} from "../../src/schemas/two_factor.ts";
import { checkPassword } from "../../src/auth/password_check.ts";
import {
  beginEnrolment,
  canUseTwoFactor,
  confirmEnrolment,
  disableTwoFactor,
  endChallenge,
  failChallenge,
  isTwoFactorRequired,
  readChallenge,
  secondFactorStep,
} from "../../src/auth/two_factor.ts";
import { startStaffSession } from "../../src/auth/staff_session.ts";
import { checkSecondFactor } from "../../src/auth/second_factor_check.ts";
import { readKnownDevice, rememberDevice } from "../../src/auth/known_device.ts";

export const twoFactorApi = new Hono<AppEnv>();

const SIGN_IN_AGAIN = "Your sign-in has expired. Please sign in again with your password.";

/**
 * Who is enrolling: the signed-in admin or owner, or someone between the
 * password and the second factor whom the store requires to enrol first.
 */
async function enrollingUser(c: Context<AppEnv>) {
  const { db, config } = c.var;
  if (c.var.user) {
    const me = await findUserById(db, c.var.user.id);
    if (!me || !canUseTwoFactor(me.role) || me.isExternal) {
      throw new HttpError(403, "Two-factor sign-in is for admin and owner accounts.");
    }
    return { user: me, challenge: undefined };
  }
  const challenge = await readChallenge(c, db, config.secureCookies);
  if (!challenge) throw unauthorized();
  const user = await findUserById(db, challenge.userId);
  if (!user || await secondFactorStep(db, user) !== "enrol") throw unauthorized();
  return { user, challenge };
}

twoFactorApi.post("/auth/two-factor/verify", async (c) => {
  const { code } = await readJson(c, secondFactorSchema);
  const { db, config } = c.var;
  const challenge = await readChallenge(c, db, config.secureCookies);
  if (!challenge) throw new HttpError(401, SIGN_IN_AGAIN);
  const user = await findUserById(db, challenge.userId);
  if (!user) throw new HttpError(401, SIGN_IN_AGAIN);
  // Throttled across challenges by the account's wrong codes (a 429), and audited.
  const used = await checkSecondFactor(c, user, code, "sign_in");
  if (!used) {
    const left = await failChallenge(db, challenge.id);
    if (left === 0) {
      await endChallenge(c, db, challenge.id, config.secureCookies);
      throw new HttpError(401, `Too many wrong codes. ${SIGN_IN_AGAIN}`);
    }
    const message = "That code is not right, or was already used. Please try the current one.";
    throw new HttpError(400, message, { code: message });
  }
  await endChallenge(c, db, challenge.id, config.secureCookies);
  await startStaffSession(c, user, { secondFactor: used });
  // Only a whole sign-in makes this browser a known device of the account.
  await rememberDevice(c, user.id, await readKnownDevice(c));
  return c.json({ returnTo: challenge.returnTo });
});

/**
 * A second factor that is on is replaced only after the password and a
 * current code (or a recovery code): both checked and throttled like a
 * sign-in, wrong ones audited. Only then is a new secret kept pending, which
 * `enable` alone can confirm.
 */
async function reauthenticate(c: Context<AppEnv>, user: { id: string; username: string }) {
  const { currentPassword, code } = await readJson(c, replaceTwoFactorSchema);
  const me = await findUserById(c.var.db, user.id);
  const check = await checkPassword(c, {
    username: user.username,
    user: me,
    password: currentPassword,
    purpose: "two_factor_replace",
    field: "currentPassword",
  });
  if (!check.ok) {
    const message = "The current password is not correct";
    throw new HttpError(400, message, { currentPassword: message });
  }
  if (!await checkSecondFactor(c, user, code, "replace")) {
    const message = "That code is not right, or was already used.";
    throw new HttpError(400, message, { code: message });
  }
}

twoFactorApi.post("/auth/two-factor/setup", async (c) => {
  const { user } = await enrollingUser(c);
  if (user.totpEnabledAt) await reauthenticate(c, user);
  const branding = await findBranding(c.var.db, null);
  return c.json(
    await beginEnrolment(c.var.db, c.var.config.secretKey, user, `${branding.storeName} Lensdesk`),
  );
});

twoFactorApi.post("/auth/two-factor/enable", async (c) => {
  const { code } = await readJson(c, totpCodeSchema);
  const { db, config } = c.var;
  const { user, challenge } = await enrollingUser(c);
  const recoveryCodes = await confirmEnrolment(
    db,
    config.secretKey,
    user.id,
    code,
    c.var.clock().getTime(),
  );
  if (!recoveryCodes) {
    const message = "That code does not match. Scan the QR code again and enter the current code.";
    throw new HttpError(400, message, { code: message });
  }
  await recordAudit(
    db,
    { id: user.id, label: user.username },
    user.totpEnabledAt ? "user.two_factor_replaced" : "user.two_factor_enabled",
    "user",
    user.id,
    {},
  );
  if (!challenge) return c.json({ recoveryCodes });
  await endChallenge(c, db, challenge.id, config.secureCookies);
  await startStaffSession(c, user, { secondFactor: "enrolled" });
  await rememberDevice(c, user.id, await readKnownDevice(c));
  return c.json({ recoveryCodes, returnTo: challenge.returnTo });
});

twoFactorApi.delete("/auth/two-factor", requireUser("ADMIN", "OWNER"), async (c) => {
  const { code } = await readJson(c, secondFactorSchema);
  const { db } = c.var;
  const me = c.var.user!;
  if (await isTwoFactorRequired(db)) {
    throw new HttpError(409, "The store requires two-factor sign-in for admins and owners.");
  }
  if (!await checkSecondFactor(c, me, code, "turn_off")) {
    const message = "That code is not right, or was already used.";
    throw new HttpError(400, message, { code: message });
  }
  await disableTwoFactor(db, me.id);
  await recordAudit(db, auditActor(c), "user.two_factor_disabled", "user", me.id, {});
  return c.json({ message: "Two-factor sign-in is off." });
});

/** The owner's store-wide rule (shown in Settings). */
twoFactorApi.put("/admin/two-factor-policy", requireUser("OWNER"), async (c) => {
  const { required } = await readJson(c, twoFactorPolicySchema);
  const { db } = c.var;
  const me = await findUserById(db, c.var.user!.id);
  // So the owner who turns it on is not the first one locked into enrolment.
  if (required && !me?.totpEnabledAt && !me?.isExternal) {
    throw new HttpError(409, "Set up two-factor sign-in for your own account first.");
  }
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("settings").select("requireTwoFactor").where("id", "=", 1)
      .forUpdate().executeTakeFirstOrThrow();
    await trx.updateTable("settings").set({ requireTwoFactor: required, updatedAt: new Date() })
      .where("id", "=", 1).execute();
    await recordAudit(trx, auditActor(c), "settings.two_factor_policy", "settings", null, {
      required,
      changes: before.requireTwoFactor === required
        ? []
        : [{ field: "twoFactorRequired", from: before.requireTwoFactor, to: required }],
    });
  });
  return c.json({ required });
});
