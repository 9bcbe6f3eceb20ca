import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import {
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordSchema,
  RESET_DONE,
  resetPasswordWithTokenSchema,
} from "../../src/schemas/password_recovery.ts";
import { requestPasswordReset } from "../../src/auth/forgot_password.ts";
import { RESET_TOKEN_MESSAGES, resetPasswordWithToken } from "../../src/auth/password_reset.ts";

export const passwordRecoveryApi = new Hono<AppEnv>();

/** Always the same answer, in the same time (see requestPasswordReset). */
passwordRecoveryApi.post("/auth/forgot-password", async (c) => {
  const { email } = await readJson(c, forgotPasswordSchema);
  await requestPasswordReset(c, email);
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
