// Who may do what to whom in user management (spec section 6). Pure, so the
// screen hides what the server would refuse anyway.
import type { Role } from "../../db/schema.ts";
import { isChainWide } from "../stores/chain_wide.ts";

export interface Person {
  id: string;
  role: Role;
  /** Signs in through the owner provider: no local password to reset. */
  isExternal?: boolean;
  /** Has a second factor (only an owner may reset another user's). */
  twoFactorEnabled?: boolean;
  /** An ADMIN of the whole chain (migration 0037); else an admin of their stores only. */
  chainAdmin?: boolean;
  /**
   * The stores they work in (ids). A store admin manages only the users who
   * share one of theirs; for the actor, the active stores they work in.
   */
  storeIds?: string[];
}

/** Whether `actor` administers `target`'s stores: chain-wide, or sharing one of them. */
export function sharesStore(actor: Person, target: Person): boolean {
  if (isChainWide(actor) || target.role === "OWNER") return true;
  const mine = new Set(actor.storeIds ?? []);
  return (target.storeIds ?? []).some((s) => mine.has(s));
}

export function userPermissions(actor: Person, target: Person) {
  const self = actor.id === target.id;
  const owner = actor.role === "OWNER";
  const admin = actor.role === "ADMIN";
  const targetIsStaff = target.role === "AUTHORIZED_USER";
  // An OWNER acts on anyone; an ADMIN only on users who are neither ADMIN nor
  // OWNER, and a store admin only on those who work in one of their stores.
  const manage = owner || (admin && targetIsStaff && sharesStore(actor, target));
  return {
    // "An OWNER on anyone", themselves included (the last owner's role is
    // guarded on the server); an ADMIN never manages an ADMIN, so never self.
    canResetPassword: manage && !target.isExternal,
    canChangeRole: manage,
    canChangeUsername: manage || self,
    // Never oneself; an OWNER anyone else; an ADMIN only AUTHORIZED_USER accounts.
    canDelete: !self && manage,
    // An owner works in every store whatever the rows say.
    canChangeStores: manage && target.role !== "OWNER",
    // The way back for someone who lost their phone: an owner, for anyone else.
    canResetTwoFactor: owner && !self && !!target.twoFactorEnabled,
  };
}

/** Only the owner and chain admins make (or unmake) a chain admin. */
export const canSetChainAdmin = (actor: Person) => isChainWide(actor);

/** Role choices when creating or changing a user. */
export function assignableRoles(actorRole: Role): Role[] {
  return actorRole === "OWNER"
    ? ["AUTHORIZED_USER", "ADMIN", "OWNER"]
    : ["AUTHORIZED_USER", "ADMIN"];
}

export const ROLE_LABELS: Record<Role, string> = {
  AUTHORIZED_USER: "Authorized User",
  ADMIN: "Admin",
  OWNER: "Owner",
};
