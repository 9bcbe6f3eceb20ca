// The reset-password form's checks in the spec's words, ending in the API's
// own schema so the browser and the server agree on every rule.
import * as z from "zod";
import { safeText } from "./text.ts";
import { resetPasswordWithTokenSchema } from "./password_recovery.ts";

export const FILL_ALL = "Please fill in all fields";
export const NO_MATCH = "Passwords do not match";

export const resetPasswordFormSchema = z.object({
  token: safeText(),
  newPassword: safeText(),
  confirmPassword: safeText(),
}).superRefine((v, ctx) => {
  if (v.newPassword === "" || v.confirmPassword === "") {
    const path = v.newPassword === "" ? "newPassword" : "confirmPassword";
    ctx.addIssue({ code: "custom", message: FILL_ALL, path: [path] });
  } else if (v.newPassword !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", message: NO_MATCH, path: ["confirmPassword"] });
  }
}).transform(({ confirmPassword: _, ...rest }) => rest).pipe(resetPasswordWithTokenSchema);
