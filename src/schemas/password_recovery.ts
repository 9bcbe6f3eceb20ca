import * as z from "zod";
import { safeText } from "./text.ts";
import { passwordField } from "./users.ts";

import { EMAIL_REQUIRED } from "./password_recovery_messages.ts";

export { EMAIL_REQUIRED, FORGOT_PASSWORD_ANSWER } from "./password_recovery_messages.ts";

export const forgotPasswordSchema = z.object({
  email: safeText({ error: EMAIL_REQUIRED, trim: true }).min(1, EMAIL_REQUIRED).max(254)
    .pipe(z.email("Please enter a valid email address")),
});

export const NO_TOKEN = "No reset token found";

export const resetPasswordWithTokenSchema = z.object({
  token: safeText({ error: NO_TOKEN, trim: true }).min(1, NO_TOKEN).max(200),
  newPassword: passwordField("Password must be at least 6 characters long"),
});

export const RESET_DONE = "Password reset successful. You can now log in with your new password.";
