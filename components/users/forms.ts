// Browser-side checks for the user-management dialogs. Each one ends in the
// API's own schema from src/schemas/users.ts, so the browser and the server
// agree on every rule; the confirmation fields the API never sees are checked
// first, with the spec's wording.
import * as z from "zod";
import {
  changePasswordSchema,
  newUserSchema,
  resetPasswordSchema,
  updateUserSchema,
} from "../../src/schemas/users.ts";
import { safeText } from "../../src/schemas/text.ts";

export const RESET_MISMATCH = "Passwords don't match or are empty.";
export const OWN_MISMATCH = "Please fill all fields and ensure new passwords match.";

export { newUserSchema };

/** Another user's new password, typed twice. */
export const resetPasswordFormSchema = z.object({
  newPassword: safeText(),
  confirmPassword: safeText(),
}).superRefine((v, ctx) => {
  if (v.newPassword === "") {
    ctx.addIssue({ code: "custom", message: RESET_MISMATCH, path: ["newPassword"] });
  } else if (v.newPassword !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", message: RESET_MISMATCH, path: ["confirmPassword"] });
  }
}).transform(({ confirmPassword: _, ...rest }) => rest).pipe(resetPasswordSchema);

/** The signed-in user's own password: current, new and the new one again. */
export const changeOwnPasswordFormSchema = z.object({
  currentPassword: safeText(),
  newPassword: safeText(),
  confirmPassword: safeText(),
}).superRefine((v, ctx) => {
  const empty = (["currentPassword", "newPassword", "confirmPassword"] as const).find((k) =>
    v[k] === ""
  );
  if (empty) ctx.addIssue({ code: "custom", message: OWN_MISMATCH, path: [empty] });
  else if (v.newPassword !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", message: OWN_MISMATCH, path: ["confirmPassword"] });
  }
}).transform(({ confirmPassword: _, ...rest }) => rest).pipe(changePasswordSchema);

/** The two shapes PUT /api/admin/users/{id} accepts. */
const [roleChange, usernameChange] = updateUserSchema.options;
export const roleChangeSchema = roleChange;
export const usernameChangeSchema = usernameChange;
