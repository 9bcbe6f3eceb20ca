import * as z from "zod";
import { safeText } from "./text.ts";

export const CODE_REQUIRED = "Please enter the code from your authenticator app";

/** A 6-digit code, or (sign-in only) a recovery code. */
export const secondFactorSchema = z.object({
  code: safeText({ error: CODE_REQUIRED, trim: true }).min(1, CODE_REQUIRED).max(40),
});

export const totpCodeSchema = z.object({
  code: safeText({ error: CODE_REQUIRED, trim: true }).regex(
    /^\d{6}$/,
    "Enter the 6-digit code from your authenticator app",
  ),
});

export const twoFactorPolicySchema = z.object({
  required: z.boolean({ error: "required must be true or false" }),
});

export const CURRENT_PASSWORD_REQUIRED = "Please enter your current password";

/**
 * Replacing a second factor that is on: the account's password and a current
 * code (or a recovery code) first, so an open session alone cannot swap the
 * authenticator for someone else's.
 */
export const replaceTwoFactorSchema = z.object({
  currentPassword: safeText({ error: CURRENT_PASSWORD_REQUIRED }).min(1, CURRENT_PASSWORD_REQUIRED)
    .max(1000),
  code: secondFactorSchema.shape.code,
});
