import * as z from "zod";
import { hasVisibleCharacter, safeText } from "./text.ts";

export { hasVisibleCharacter } from "./text.ts";

const role = z.enum(["AUTHORIZED_USER", "ADMIN", "OWNER"], { error: "Please choose a role" });

export const PASSWORD_MIN = 6;
export const BLANK_PASSWORD_MESSAGE = "Password must not be only spaces or invisible characters.";

/**
 * Every new password (user creation, an admin's reset, one's own change): at
 * least 6 characters as typed, at least one of them visible (not only
 * whitespace, zero-width or filler characters), no control characters.
 * `tooShort` is the screen's own wording for the length rule.
 */
export const passwordField = (tooShort: string) =>
  safeText({ error: tooShort }).min(PASSWORD_MIN, tooShort).max(200)
    .refine(hasVisibleCharacter, BLANK_PASSWORD_MESSAGE);

const usernameField = (message: string) =>
  safeText({ error: message, trim: true }).min(3, message).max(60)
    .regex(/^[A-Za-z0-9._@-]+$/, "Username may use letters, digits and . _ @ - only");

const requiredText = (max: number) =>
  safeText({ error: "Please fill in all required fields.", trim: true })
    .min(1, "Please fill in all required fields.").max(max);

export const newUserSchema = z.object({
  email: requiredText(254).pipe(z.email("Please enter a valid email address")),
  firstName: requiredText(100),
  lastName: requiredText(100),
  username: usernameField("Username is required and must be at least 3 characters."),
  password: passwordField("Password must be at least 6 characters long."),
  role,
});
export type NewUserInput = z.infer<typeof newUserSchema>;

export const resetPasswordSchema = z.object({
  newPassword: passwordField("Password must be at least 6 characters long."),
});

export const updateUserSchema = z.union([
  z.object({ role }).strict(),
  z.object({ username: usernameField("Username must be at least 3 characters long.") }).strict(),
]);

export const changePasswordSchema = z.object({
  currentPassword: safeText({ error: "Please fill all fields and ensure new passwords match." })
    .min(1, "Please fill all fields and ensure new passwords match.").max(200),
  newPassword: passwordField("New password must be at least 6 characters long."),
});
