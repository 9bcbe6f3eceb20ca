import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { HttpError } from "../http/errors.ts";
import { safeReturnTo } from "../http/return_to.ts";
import type { StaffLoginInput } from "../schemas/auth.ts";
import { findUserByUsername } from "../users/users.ts";
import { checkPassword } from "./password_check.ts";
import { rememberDevice } from "./known_device.ts";
import { startStaffSession } from "./staff_session.ts";
import { secondFactorStep, startChallenge } from "./two_factor.ts";

/** Where a right password leads: on, or to the second-factor page (no session yet). */
export type SignInResult = { returnTo: string } | { twoFactor: "verify" | "enrol" };

/** The page of the step between the password and the second factor. */
export const TWO_FACTOR_PAGE = "/staff/two-factor";

/**
 * The one staff sign-in with a password, for the JSON call (the enhanced form)
 * and the plain HTML form alike: throttled and audited by checkPassword, a new
 * session with its cookie, and the safe place to go next. Throws HttpError
 * (401 for a wrong name or password, 429 while throttled).
 */
export async function signInWithPassword(
  c: Context<AppEnv>,
  input: StaffLoginInput,
): Promise<SignInResult> {
  const { db } = c.var;
  const user = await findUserByUsername(db, input.username);
  const check = await checkPassword(c, {
    username: input.username,
    user,
    password: input.password,
    purpose: "login",
  });
  if (!user || !check.ok) throw new HttpError(401, "Invalid username or password");
  const returnTo = safeReturnTo(input.returnTo, c.var.config.appUrl);
  const step = await secondFactorStep(db, user);
  // A new session at every sign-in; the one the browser came with (if any) ends.
  if (step === "none") await startStaffSession(c, user, {});
  // No session yet: the second factor (or enrolment in it) comes first.
  else await startChallenge(c, db, user.id, returnTo, c.var.config.secureCookies);
  // This browser now knows the account: guesses from elsewhere cannot lock it
  // out here. With a second factor, only once the code has passed too (the
  // code step remembers it), or knowing the password would be enough to be
  // spared the wrong-code limits.
  if (step === "none") await rememberDevice(c, user.id, check.device);
  return step === "none" ? { returnTo } : { twoFactor: step };
}
