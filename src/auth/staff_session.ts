import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { recordAudit } from "../audit/audit_log.ts";
import {
  createSession,
  generateSessionToken,
  invalidateSession,
  setSessionCookie,
} from "./session.ts";

/** A new session at every sign-in; the one the browser came with (if any) ends. */
export async function startStaffSession(
  c: Context<AppEnv>,
  user: { id: string; username: string },
  details: Record<string, unknown>,
) {
  const { db, clientIp } = c.var;
  if (c.var.session) await invalidateSession(db, c.var.session.id);
  const token = generateSessionToken();
  const session = await createSession(db, token, user.id, {
    ip: clientIp,
    userAgent: c.req.header("user-agent"),
  });
  setSessionCookie(c, token, session, c.var.config.secureCookies);
  await recordAudit(db, { id: user.id, label: user.username }, "auth.login", "user", user.id, {
    ip: clientIp,
    ...details,
  });
}
