import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { HttpError } from "../http/errors.ts";
import { findUserByUsername } from "../users/users.ts";
import { checkPassword } from "../auth/password_check.ts";
import { secondFactorStep } from "../auth/two_factor.ts";
import { recordAudit } from "../audit/audit_log.ts";

/**
 * The one password check of the kiosk: whoever takes the tablet back types a
 * staff username and password. It goes through the app's one password check
 * (src/auth/password_check.ts: the same shared counters, 429 with Retry-After
 * and audit entries as staff sign-in), so the tablet is not a side door for
 * guessing passwords.
 */
export async function checkStaffPassword(
  c: Context<AppEnv>,
  username: string,
  password: string,
) {
  const user = await findUserByUsername(c.var.db, username);
  const check = await checkPassword(c, { username, user, password, purpose: "kiosk_return" });
  if (!user || !check.ok) throw new HttpError(401, "Invalid username or password");
  // The tablet's form has no second-factor step; it must not be a way around it.
  if (await secondFactorStep(c.var.db, user) !== "none") {
    throw new HttpError(
      403,
      "This account signs in with a second factor. Take the tablet back with another staff account, or sign in at the staff sign-in page.",
    );
  }
  await recordAudit(
    c.var.db,
    { id: user.id, label: user.username },
    "auth.login",
    "user",
    user.id,
    {
      ip: c.var.clientIp,
      via: "kiosk",
    },
  );
  return user;
}
