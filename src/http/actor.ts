import type { Context } from "hono";
import type { AppEnv } from "./app_env.ts";
import type { AuditActor } from "../audit/audit_log.ts";

/** Who the audit log names for this request: the signed-in user, else the intake tablet. */
export function auditActor(c: Context<AppEnv>): AuditActor {
  const user = c.var.user;
  return user ? { id: user.id, label: user.username } : { id: null, label: "intake" };
}
