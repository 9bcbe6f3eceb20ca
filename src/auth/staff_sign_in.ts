import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { HttpError } from "../http/errors.ts";
import { safeReturnTo } from "../http/return_to.ts";
import type { StaffLoginInput } from "../schemas/auth.ts";
import { findUserByUsername } from "../users/users.ts";
import { recordAudit } from "../audit/audit_log.ts";
import { checkPassword } from "./password_check.ts";
import { rememberDevice } from "./known_device.ts";
import {
  createSession,
  generateSessionToken,
  invalidateSession,
  setSessionCookie,
} from "./session.ts";

/**
 * The one staff sign-in with a password, for the JSON call (the enhanced form)
 * and the plain HTML form alike: throttled and audited by checkPassword, a new
 * session with its cookie, and the safe place to go next. Throws HttpError
 * (401 for a wrong name or password, 429 while throttled).
 */
export async function signInWithPassword(
  c: Context<AppEnv>,
  input: StaffLoginInput,
): Promise<{ returnTo: string }> {
  const { db, clientIp } = c.var;
  const user = await findUserByUsername(db, input.username);
  const check = await checkPassword(c, {
    username: input.username,
    user,
    password: input.password,
    purpose: "login",
  });
  if (!user || !check.ok) throw new HttpError(401, "Invalid username or password");
  // A new session at every sign-in; the one the browser came with (if any) ends.
  if (c.var.session) await invalidateSession(db, c.var.session.id);
  const token = generateSessionToken();
  const session = await createSession(db, token, user.id, {
    ip: clientIp,
    userAgent: c.req.header("user-agent"),
  });
  setSessionCookie(c, token, session, c.var.config.secureCookies);
  // This browser now knows the account: guesses from elsewhere cannot lock it out here.
  await rememberDevice(c, user.id, check.device);
  await recordAudit(db, { id: user.id, label: user.username }, "auth.login", "user", user.id, {
    ip: clientIp,
  });
  return { returnTo: safeReturnTo(input.returnTo, c.var.config.appUrl) };
}
