// Who may do what to whom in user management (spec section 6). Pure, so the
// screen hides what the server would refuse anyway.
import type { Role } from "../../db/schema.ts";

export interface Person {
  id: string;
  role: Role;
  /** Signs in through the owner provider: no local password to reset. */
  isExternal?: boolean;
  /** Has a second factor (only an owner may reset another user's). */
  twoFactorEnabled?: boolean;
}

export function userPermissions(actor: Person, target: Person) {
  const self = actor.id === target.id;
  const owner = actor.role === "OWNER";
  const admin = actor.role === "ADMIN";
  const targetIsStaff = target.role === "AUTHORIZED_USER";
  // An OWNER acts on anyone; an ADMIN only on users who are neither ADMIN nor OWNER.
  const manage = owner || (admin && targetIsStaff);
  return {
    // "An OWNER on anyone", themselves included (the last owner's role is
    // guarded on the server); an ADMIN never manages an ADMIN, so never self.
    canResetPassword: manage && !target.isExternal,
    canChangeRole: manage,
    canChangeUsername: manage || self,
    // Never oneself; an OWNER anyone else; an ADMIN only AUTHORIZED_USER accounts.
    canDelete: !self && (owner || (admin && targetIsStaff)),
    // The way back for someone who lost their phone: an owner, for anyone else.
    canResetTwoFactor: owner && !self && !!target.twoFactorEnabled,
  };
}

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
