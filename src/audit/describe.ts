// How an audit entry reads to a person: one summary line and, where the entry
// recorded them, field-level changes (old → new). Pure: the History tabs and
// the audit page show the same words.
import type { QuoteStatus, Role } from "../../db/schema.ts";
import { QUOTE_STATUSES } from "../quotes/rules.ts";
import { formatDecimal } from "../money/amounts.ts";
import { ROLE_LABELS } from "../users/permissions.ts";

/** A change as recorded: the value before and after. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** One line under an entry: "Label: from → to", or a line of text. */
export interface HistoryChange {
  label: string;
  from?: string;
  to?: string;
  text?: string;
}

export interface HistoryEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  kind: string;
  entityType: string;
  entityId: string | null;
  /** The store the entry concerns; null is the chain's (migration 0038). */
  storeId: string | null;
  summary: string;
  changes: HistoryChange[];
}

const STATUS_LABELS: Record<QuoteStatus, string> = {
  DRAFT: "Draft",
  ACTIVE: "Active",
  PENDING_MEASUREMENTS: "Pending Measurements",
  FINALIZED: "Finalized",
  EMAILED: "Emailed",
  ACCEPTED: "Accepted",
  CLOSED: "Closed",
};

/** The words each recorded field is shown with. */
const FIELD_LABELS: Record<string, string> = {
  firstName: "First name",
  middleName: "Middle name",
  lastName: "Last name",
  dob: "Date of birth",
  email: "Email",
  homePhone: "Home phone",
  mobilePhone: "Mobile phone",
  address1: "Address line 1",
  address2: "Address line 2",
  city: "City",
  state: "State",
  zip: "ZIP",
  pdBinocular: "PD distance",
  pdNear: "PD near",
  measurementsComplete: "Measurements complete",
  status: "Status",
  opticianName: "Optician",
  total: "Total",
  name: "Name",
  description: "Description",
  price: "Price",
  active: "Active",
  sortOrder: "Sort order",
  expiresAt: "Expires",
  role: "Role",
  username: "Username",
  password: "Password",
  // Options and items of a quote.
  label: "Label",
  isChosen: "Chosen",
  shipping: "Shipping",
  adjustmentAmount: "Adjustment",
  adjustmentReason: "Adjustment reason",
  notes: "Notes",
  segOc: "SEG/OC",
  sku: "SKU",
  unitPrice: "Price",
  qty: "Quantity",
  // Prescriptions.
  dateWritten: "Date written",
  prescriber: "Prescriber",
  expiresOn: "Expires on",
  // Settings.
  storeName: "Store name",
  storePhone: "Store phone",
  storeEmail: "Store e-mail",
  storeAddress: "Store address",
  storeWebsite: "Store website",
  logoUrl: "Logo",
  faviconUrl: "Favicon",
  footerMessage: "Footer message",
  quoteExpirationEnabled: "Quotes expire",
  quoteExpirationDays: "Quote expiration days",
  smsConsentText: "SMS consent text",
  emailConsentText: "E-mail consent text",
  emailSubject: "E-mail subject",
  emailBody: "E-mail body",
  smtpHost: "SMTP host",
  smtpPort: "SMTP port",
  smtpUser: "SMTP user",
  smtpPassword: "SMTP password",
  smtpFromEmail: "From e-mail",
  smtpFromName: "From name",
  smtpAllowInsecure: "Local relay without TLS",
  acceptanceTermsText: "Online acceptance terms",
  openingDays: "Opening days",
  closedDates: "Closed dates",
  openingTime: "Opening time",
  closingTime: "Closing time",
  timeZone: "Time zone",
  readyEmailSubject: "Ready e-mail subject",
  readyEmailBody: "Ready e-mail body",
  readyUndoMinutes: "Undo window (minutes)",
  readyWaitingDays: "Ready and waiting after (days)",
  twoFactorRequired: "Two-factor sign-in required",
  // A store's own settings (migration 0036), and the stores a user works in.
  code: "Code",
  phone: "Phone",
  address: "Address",
  website: "Website",
  stores: "Stores",
  chainAdmin: "Chain admin",
  pickupStore: "Pickup store",
  homeStore: "Home store",
  labs: "Labs",
};

/** Prescription eye fields: "rightEye.sphere" → "Right eye sphere". */
const EYE_PARTS: Record<string, string> = {
  rightEye: "Right eye",
  leftEye: "Left eye",
  sphere: "sphere",
  cylinder: "cylinder",
  axis: "axis",
  add: "add",
  prism: "prism",
};

/** Fields holding amounts, shown as dollars. */
const MONEY_FIELDS = new Set(["total", "price", "shipping", "adjustmentAmount", "unitPrice"]);

const isStatus = (v: unknown): v is QuoteStatus =>
  typeof v === "string" && (QUOTE_STATUSES as string[]).includes(v);

/** Dates in the store's time zone (TZ), like the rest of the app. */
const dayFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** A recorded value as text: blanks read "(empty)", booleans Yes/No, statuses their label. */
export function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (field === "status" && isStatus(value)) return STATUS_LABELS[value];
  if (MONEY_FIELDS.has(field) && typeof value === "string") return formatDecimal(value);
  if (field === "role" && typeof value === "string" && value in ROLE_LABELS) {
    return ROLE_LABELS[value as Role];
  }
  if (field === "expiresAt" && typeof value === "string") {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return dayFormat.format(date);
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function labelOf(field: string): string {
  if (FIELD_LABELS[field]) return FIELD_LABELS[field];
  const [eye, part] = field.split(".");
  if (part && EYE_PARTS[eye] && EYE_PARTS[part]) return `${EYE_PARTS[eye]} ${EYE_PARTS[part]}`;
  return field;
}

function isChange(v: unknown): v is FieldChange {
  return !!v && typeof v === "object" && "from" in v && "to" in v;
}

/**
 * Changes are stored as an array, in the order of the form's fields: a jsonb
 * object would come back with its keys reordered.
 */
function changeLines(changes: unknown, prefix = ""): HistoryChange[] {
  if (!Array.isArray(changes)) return [];
  const lines: HistoryChange[] = [];
  for (const c of changes) {
    const field = (c as { field?: unknown })?.field;
    if (typeof field !== "string") continue;
    const label = prefix + labelOf(field);
    // Secrets and free text: that it changed, never the value.
    if ((c as { secret?: unknown }).secret === true) {
      lines.push({ label, text: "changed (the value is not kept in history)" });
    } else if ((c as { edited?: unknown }).edited === true) {
      lines.push({ label, text: "edited (the text is not kept in history)" });
    } else if (isChange(c)) {
      lines.push({ label, from: valueText(field, c.from), to: valueText(field, c.to) });
    }
  }
  return lines;
}

/**
 * A quote save's changes inside its options (src/quotes/history.ts
 * QuotePartChange): 'Option 1 "Progressives" · Frame "Ray-Ban" (RB1) price:
 * $100.00 → $120.00', 'Option 2: added (total $89.00)'.
 */
function partLines(parts: unknown): HistoryChange[] {
  if (!Array.isArray(parts)) return [];
  const lines: HistoryChange[] = [];
  for (const p of parts as Record<string, unknown>[]) {
    if (!p || typeof p.option !== "string") continue;
    const where = typeof p.item === "string" ? `${p.option} · ${p.item}` : p.option;
    if (p.event === "added" || p.event === "removed") {
      const amount = typeof p.amount === "string" ? p.amount : "";
      const [price, qty] = amount.split(" × ");
      const shown = !amount
        ? ""
        : typeof p.item === "string"
        ? ` (${formatDecimal(price)} × ${qty})`
        : ` (total ${formatDecimal(price)})`;
      lines.push({ label: where, text: `${p.event}${shown}` });
    } else if (typeof p.field === "string") {
      lines.push(...changeLines([p], `${where} · `));
    }
  }
  return lines;
}

/** Lines of a catalog import's items shown at most; the rest are counted. */
const IMPORT_LINES = 200;

/** A catalog CSV import's rows: each item added (its values) or changed (field by field). */
function importLines(items: unknown): HistoryChange[] {
  if (!Array.isArray(items)) return [];
  const lines: HistoryChange[] = [];
  for (const item of items as Record<string, unknown>[]) {
    if (!item || typeof item.name !== "string") continue;
    const where = `Item "${item.name}"`;
    if (item.event === "added") lines.push({ label: where, text: "added" });
    lines.push(...changeLines(item.changes, `${where} · `));
  }
  if (lines.length <= IMPORT_LINES) return lines;
  return [
    ...lines.slice(0, IMPORT_LINES),
    { label: "More", text: `${lines.length - IMPORT_LINES} more changes not shown` },
  ];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "1 added, 2 changed": the option summary a quote save records. */
function optionLine(options: unknown): HistoryChange | undefined {
  if (!options || typeof options !== "object") return undefined;
  const o = options as Record<string, unknown>;
  const n = (k: string) => (typeof o[k] === "number" ? o[k] as number : 0);
  if (!("added" in o)) return undefined;
  const parts = [
    n("added") && `${n("added")} added`,
    n("removed") && `${n("removed")} removed`,
    n("changed") && `${n("changed")} changed`,
  ].filter(Boolean);
  return {
    label: "Options",
    text: parts.length
      ? `${parts.join(", ")} (${plural(n("after"), "option")} now)`
      : `no option changed (${plural(n("after"), "option")})`,
  };
}

/** Entries written before field-level history kept only these shapes. */
function legacyLines(details: Record<string, unknown>): HistoryChange[] {
  const lines: HistoryChange[] = [];
  if (Array.isArray(details.fields)) {
    lines.push({ label: "Fields", text: details.fields.map((f) => labelOf(String(f))).join(", ") });
  }
  if (!isChange(details.status) && (isStatus(details.from) || isStatus(details.to))) {
    lines.push({
      label: "Status",
      from: isStatus(details.from) ? STATUS_LABELS[details.from] : "—",
      to: isStatus(details.to) ? STATUS_LABELS[details.to] : "—",
    });
  }
  return lines;
}

/** ": written 2025-03-01 by Dr. Lee" for the prescription entries. */
const rxOf = (d: Record<string, unknown>) =>
  typeof d.dateWritten === "string"
    ? `: written ${d.dateWritten}${typeof d.prescriber === "string" ? ` by ${d.prescriber}` : ""}`
    : "";

const SUMMARIES: Record<string, (d: Record<string, unknown>) => string> = {
  "client.create": (d) =>
    d.via === "intake" ? "Client registered on the intake form" : "Client created",
  "client.update": () => "Client details changed",
  "client.measurements": () => "Measurements changed",
  "client.delete": (d) => `Client deleted${d.name ? `: ${d.name}` : ""}`,
  "client.prescription_add": (d) => `Prescription added${rxOf(d)}`,
  "client.prescription_edit": (d) => `Prescription changed${rxOf(d)}`,
  "client.prescription_delete": (d) => `Prescription deleted${rxOf(d)}`,
  "quote.carry_over_confirm": () => "Carried-over measurements confirmed",
  "quote.create": () => "Quote created",
  "quote.save": (d) =>
    `Quote saved${typeof d.version === "number" ? ` (version ${d.version})` : ""}`,
  "quote.accept": () => "Client confirmed the selection on the tablet",
  "quote.close": () => "Quote closed",
  "quote.reactivate": () => "Quote reactivated",
  "quote.finalize": () => "Quote finalized",
  // Written when the e-mail was queued (it may not have gone out): say so.
  "quote.email": (d) => `Quote e-mail queued${typeof d.to === "string" ? ` for ${d.to}` : ""}`,
  "quote.email_queued": (d) =>
    `Quote e-mail queued${typeof d.to === "string" ? ` for ${d.to}` : ""}`,
  "quote.email_sent": (d) => `Quote e-mail sent${typeof d.to === "string" ? ` to ${d.to}` : ""}`,
  "quote.email_failed": (d) =>
    `Quote e-mail given up after every retry${typeof d.to === "string" ? ` (to ${d.to})` : ""}`,
  "quote.seg_oc": () => "SEG/OC changed",
  "quote.viewed_online": () => "Viewed by the client",
  "quote.accept_online": (d) =>
    `Accepted online${typeof d.signer === "string" ? ` by ${d.signer}` : ""}`,
  "quote.decline_online": (d) =>
    `Declined online${typeof d.message === "string" && d.message ? `: "${d.message}"` : ""}`,
  "quote.links_revoked": () => "Online links revoked",
  "quote.reopen": () => "Finalized quote reopened",
  "quote.status": (d) =>
    d.reason === "measurements_complete"
      ? "Status changed: measurements were completed"
      : d.reason === "emailed"
      ? "Status changed: the quote e-mail was delivered"
      : "Status changed",
  "quote.delete": (d) => `Quote deleted${d.quoteNumber ? `: ${d.quoteNumber}` : ""}`,
  "quote.order": (d) => `Order created${typeof d.jobs === "string" ? `: ${d.jobs}` : ""}`,
  "order.create": (d) => `Order created${typeof d.jobs === "string" ? `: ${d.jobs}` : ""}`,
  "order.job_step": (d) => `Job ${typeof d.jobNumber === "string" ? d.jobNumber : ""} moved`,
  "order.promised_date": (d) =>
    `Promised date changed${typeof d.jobNumber === "string" ? ` (${d.jobNumber})` : ""}`,
  "order.payment": (d) => `Payment taken${typeof d.amount === "string" ? `: ${d.amount}` : ""}`,
  "order.refund": (d) => `Refund given${typeof d.amount === "string" ? `: ${d.amount}` : ""}`,
  "order.client_notified": (d) =>
    `Client told the glasses are ready${
      typeof d.jobNumber === "string" ? ` (${d.jobNumber})` : ""
    }`,
  "catalog.create": (d) => `Catalog item added${d.name ? `: ${d.name}` : ""}`,
  "catalog.update": (d) => `Catalog item changed${d.name ? `: ${d.name}` : ""}`,
  "catalog.delete": (d) => `Catalog item deleted${d.name ? `: ${d.name}` : ""}`,
  "catalog.import": (d) =>
    `Catalog CSV imported: ${Number(d.created ?? 0)} added, ${Number(d.updated ?? 0)} changed`,
  "user.create": (d) => `User added${typeof d.username === "string" ? `: ${d.username}` : ""}`,
  "user.delete": (d) => `User deleted${typeof d.username === "string" ? `: ${d.username}` : ""}`,
  "user.change_role": (d) =>
    `Role changed${typeof d.username === "string" ? `: ${d.username}` : ""}` +
    (typeof d.to === "string" && d.to in ROLE_LABELS ? ` is now ${ROLE_LABELS[d.to as Role]}` : ""),
  "user.change_username": (d) =>
    `Username changed${typeof d.from === "string" ? `: ${d.from}` : ""}` +
    (typeof d.to === "string" ? ` is now ${d.to}` : ""),
  "user.reset_password": (d) =>
    `Password reset by an admin${typeof d.username === "string" ? `: ${d.username}` : ""}`,
  "auth.login": () => "Signed in",
  "auth.login_failed": () => "Sign-in refused",
  "auth.logout": () => "Signed out",
  "settings.update": () => "Settings changed",
  "settings.store_create": (d) => `Store added${typeof d.code === "string" ? `: ${d.code}` : ""}`,
  "settings.store_update": (d) => `Store changed${typeof d.code === "string" ? `: ${d.code}` : ""}`,
  "settings.store_logo": (d) =>
    typeof d.url === "string" ? "Store logo changed" : "Store logo back to the chain's",
};

/** "user.change_role" → "User change role" for actions without their own words. */
const fallbackSummary = (action: string) => {
  const text = action.replace(/[._]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** Scalar details shown as "key: value" when an action has no field-level changes. */
function scalarLines(details: Record<string, unknown>, skip: Set<string>): HistoryChange[] {
  return Object.entries(details)
    .filter(([k, v]) =>
      !skip.has(k) && (typeof v === "string" || typeof v === "number" || typeof v === "boolean")
    )
    .map(([k, v]) => ({ label: labelOf(k), text: valueText(k, v) }));
}

export function describeEntry(row: {
  id: string;
  at: string;
  actor: string;
  action: string;
  kind: string;
  entityType: string;
  entityId: string | null;
  details: Record<string, unknown>;
  storeId?: string | null;
}): HistoryEntry {
  const d = row.details ?? {};
  const summary = (SUMMARIES[row.action] ?? (() => fallbackSummary(row.action)))(d);
  const changes: HistoryChange[] = [];
  if (isChange(d.status)) changes.push(...changeLines([{ field: "status", ...d.status }]));
  changes.push(...changeLines(d.changes));
  if (d.notesChanged === true) {
    changes.push({ label: "Internal notes", text: "edited (the text is not kept in history)" });
  }
  const options = optionLine(d.options);
  if (options) changes.push(options);
  changes.push(...partLines(d.parts));
  changes.push(...importLines(d.items));
  if (isChange(d.total)) changes.push(...changeLines([{ field: "total", ...d.total }]));
  if (typeof d.chosen === "number") {
    changes.push({ label: "Chosen", text: plural(d.chosen, "option") });
  }
  if (
    typeof d.reason === "string" && (row.action === "quote.close" || row.action === "quote.reopen")
  ) {
    changes.push({ label: "Reason", text: d.reason });
  }
  changes.push(...legacyLines(d));
  if (changes.length === 0 && !row.action.startsWith("client.") && row.kind !== "quote") {
    changes.push(...scalarLines(d, new Set(["name", "via", "to", "version"])));
  }
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    kind: row.kind,
    entityType: row.entityType,
    entityId: row.entityId,
    storeId: row.storeId ?? null,
    summary,
    changes,
  };
}

/**
 * Field-level changes between two records, for the fields given and in their
 * order: only those whose value differs (null and "" count as the same blank).
 */
export function diffFields<T extends object>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): (FieldChange & { field: string })[] {
  const blank = (v: unknown) => v === null || v === undefined || v === "";
  const out: (FieldChange & { field: string })[] = [];
  for (const field of fields) {
    if (!(field in after)) continue;
    const from: unknown = before[field];
    const to: unknown = after[field];
    if (blank(from) && blank(to)) continue;
    if (from === to) continue;
    out.push({ field, from: from ?? null, to: to ?? null });
  }
  return out;
}

/**
 * The same for a record created (`before` empty) or deleted (`after` empty):
 * every listed field that differs, a missing one counting as blank.
 */
export function recordChanges(
  before: object,
  after: object,
  fields: readonly string[],
): (FieldChange & { field: string })[] {
  const full = (r: object) =>
    Object.fromEntries(fields.map((f) => [f, (r as Record<string, unknown>)[f] ?? null]));
  return diffFields(full(before), full(after), fields);
}
