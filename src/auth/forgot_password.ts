// A forgotten-password request, shared by POST /api/auth/forgot-password and
// the plain form on /forgot-password (which works without JavaScript).
import { addressKey } from "../http/client_address.ts";
import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { HttpError } from "../http/errors.ts";
import { takeResetAllowance } from "./reset_limits.ts";
import { runInBackground } from "./background.ts";
import { findResettableUsersByEmail, sendResetMail } from "./reset_mail.ts";

/**
 * Always the same outcome, in the same time: the request is counted against
 * the address typed and the caller's address (alike for known and unknown
 * addresses), and the account lookup and the mail happen after the answer.
 * Too many requests: a 429 HttpError saying when to try again.
 */
export async function requestPasswordReset(c: Context<AppEnv>, email: string): Promise<void> {
  const { db, config, logger, clientIp } = c.var;
  const wait = await takeResetAllowance(db, [
    { kind: "email", value: email },
    { kind: "ip", value: addressKey(clientIp) },
  ]);
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60_000);
    throw new HttpError(
      429,
      `Too many password reset requests. Please try again in ${minutes} minute${
        minutes === 1 ? "" : "s"
      }.`,
      undefined,
      { "Retry-After": String(Math.ceil(wait / 1000)) },
    );
  }
  // Started once the answer has gone out (Deno.serve's `completed`): on the
  // embedded database the lookup and mail work would otherwise share the
  // thread with this response and make a known address answer slower.
  const sent = (c.env as { completed?: Promise<void> } | undefined)?.completed ??
    Promise.resolve();
  runInBackground(logger, "password reset mail", async () => {
    await sent.catch(() => {});
    const deps = { db, appUrl: config.appUrl, secretKey: config.secretKey, logger };
    for (const user of await findResettableUsersByEmail(db, email)) {
      const result = await sendResetMail(deps, user);
      if (result.status !== "sent") {
        logger.log("warn", "password reset mail not sent", {
          user: user.id,
          status: result.status,
        });
      }
    }
  });
}
