import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import {
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordSchema,
  RESET_DONE,
  resetPasswordWithTokenSchema,
} from "../../src/schemas/password_recovery.ts";
import { takeResetAllowance } from "../../src/auth/reset_limits.ts";
import { runInBackground } from "../../src/auth/background.ts";
import { findResettableUsersByEmail, sendResetMail } from "../../src/auth/reset_mail.ts";
import { RESET_TOKEN_MESSAGES, resetPasswordWithToken } from "../../src/auth/password_reset.ts";

export const passwordRecoveryApi = new Hono<AppEnv>();

/**
 * Always the same answer, in the same time: the request is counted against
 * the address typed and the caller's address (alike for known and unknown
 * addresses), and the account lookup and the mail happen after the answer.
 */
passwordRecoveryApi.post("/auth/forgot-password", async (c) => {
  const { email } = await readJson(c, forgotPasswordSchema);
  const { db, config, logger, clientIp } = c.var;
  const wait = await takeResetAllowance(db, [
    { kind: "email", value: email },
    { kind: "ip", value: clientIp },
  ]);
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60_000);
    throw new HttpError(
      429,
      `Too many password reset requests. Please try again in ${minutes} minute${
        minutes === 1 ? "" : "s"
      }.`,
      undefined,
      { "Retry-After": String(Math.ceil(wait / 1000)) },
    );
  }
  // Started once the answer has gone out (Deno.serve's `completed`): on the
  // embedded database the lookup and mail work would otherwise share the
  // thread with this response and make a known address answer slower.
  const sent = (c.env as { completed?: Promise<void> } | undefined)?.completed ??
    Promise.resolve();
  runInBackground(logger, "password reset mail", async () => {
    await sent.catch(() => {});
    const deps = { db, appUrl: config.appUrl, secretKey: config.secretKey, logger };
    for (const user of await findResettableUsersByEmail(db, email)) {
      const result = await sendResetMail(deps, user);
      if (result.status !== "sent") {
        logger.log("warn", "password reset mail not sent", {
          user: user.id,
          status: result.status,
        });
      }
    }
  });
  return c.json({ message: FORGOT_PASSWORD_ANSWER });
});

passwordRecoveryApi.post("/auth/reset-password", async (c) => {
  const { token, newPassword } = await readJson(c, resetPasswordWithTokenSchema);
  const result = await resetPasswordWithToken(c.var.db, token, newPassword, { ip: c.var.clientIp });
  if (!result.ok) {
    const message = RESET_TOKEN_MESSAGES[result.reason];
    throw new HttpError(400, message, { token: message });
  }
  return c.json({ message: RESET_DONE });
});
