/** The kinds the audit page filters by: the part of the action before the dot. */
export const AUDIT_KINDS = [
  "client",
  "quote",
  "order",
  "catalog",
  "user",
  "auth",
  "settings",
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  client: "Clients",
  quote: "Quotes",
  order: "Orders",
  catalog: "Catalog",
  user: "Users",
  auth: "Sign-ins",
  settings: "Settings",
};
