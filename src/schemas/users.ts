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

const chainAdminField = z.boolean({ error: "chainAdmin must be true or false" });

/** The stores a user works in (PUT /api/admin/users/{id}/stores, and a new user's). */
export const storeIdsField = z.array(z.uuid({ error: "storeIds must be store ids" }), {
  error: "storeIds must be a list of store ids",
}).max(100);

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
  /** An ADMIN of the whole chain (the owner and chain admins say so); absent: yes. */
  chainAdmin: chainAdminField.optional(),
  /** The stores they work in; absent: the adder's current store. */
  storeIds: storeIdsField.optional(),
});
export type NewUserInput = z.infer<typeof newUserSchema>;

export const resetPasswordSchema = z.object({
  newPassword: passwordField("Password must be at least 6 characters long."),
});

export const updateUserSchema = z.union([
  // chainAdmin with an ADMIN role: absent keeps an admin's, and makes a new admin a chain admin.
  z.object({ role, chainAdmin: chainAdminField.optional() }).strict(),
  z.object({ username: usernameField("Username must be at least 3 characters long.") }).strict(),
]);

export const changePasswordSchema = z.object({
  currentPassword: safeText({ error: "Please fill all fields and ensure new passwords match." })
    .min(1, "Please fill all fields and ensure new passwords match.").max(200),
  newPassword: passwordField("New password must be at least 6 characters long."),
});
