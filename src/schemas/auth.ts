import * as z from "zod";
import { safeText } from "./text.ts";

export const staffLoginSchema = z.object({
  username: safeText({ error: "Username is required", trim: true }).min(1, "Username is required")
    .max(200),
  password: safeText({ error: "Password is required" }).min(1, "Password is required").max(1000),
  // Any text: safeReturnTo (src/http/return_to.ts) decides where it may lead,
  // and falls back to the dashboard rather than refusing the sign-in.
  returnTo: z.string().max(2000).optional(),
});
export type StaffLoginInput = z.infer<typeof staffLoginSchema>;

/**
 * What the Owner Login button adds to /api/login (`?intent=owner`). Only with
 * it does /api/login go on to the owner sign-in provider; see routes/api/auth.ts.
 */
export const OWNER_INTENT = "owner";
