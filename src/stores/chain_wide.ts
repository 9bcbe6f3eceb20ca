// The one rule of who administers the whole chain (issue 48, migration 0037),
// pure so that the screens (src/users/permissions.ts) and the server share it.
import type { Role } from "../../db/schema.ts";

/** An OWNER, or an ADMIN of the whole chain (chain_admin): administers every store. */
export function isChainWide(user: { role: Role; chainAdmin?: boolean }): boolean {
  return user.role === "OWNER" || (user.role === "ADMIN" && user.chainAdmin === true);
}

/** An ADMIN of the stores they work in only (chain_admin false, or not said). */
export function isStoreAdmin(user: { role: Role; chainAdmin?: boolean }): boolean {
  return user.role === "ADMIN" && user.chainAdmin !== true;
}
