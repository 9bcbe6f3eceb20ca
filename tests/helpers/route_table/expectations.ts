// Who may call a route, and what each caller gets for it.
import type { Fixtures } from "./fixtures.ts";

export const CALLERS = [
  "anonymous",
  "AUTHORIZED_USER",
  "ADMIN",
  /** An ADMIN of their own stores only (users.chain_admin false): the table's first store. */
  "STORE_ADMIN",
  /**
   * An AUTHORIZED_USER who works only in another store of the chain ("OTHER"),
   * not the table's first store, where every record of the table is made.
   */
  "OTHER_STORE",
  "OWNER",
  "KIOSK_INTAKE",
  "KIOSK_QUOTE",
] as const;
export type Caller = (typeof CALLERS)[number];

/** Who may call a route: anyone, signed-in staff of any role, ADMIN/OWNER, or OWNER only. */
export type Access = "public" | "staff" | "admin" | "owner";

/** What a caller gets: a status, and for redirects where to. */
export interface Expectation {
  status: number;
  location?: RegExp;
  /** For pages: text the page must contain. */
  text?: string;
}

export interface SampleRequest {
  /** The concrete path, with a query string when the route reads one. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteEntry {
  method: string;
  /** The pattern exactly as the app registers it (`app.routes`). */
  pattern: string;
  page?: boolean;
  access: Access;
  /** What an allowed caller gets for the sample request. */
  ok: Expectation;
  /** Callers for whom the route answers other than `access` implies. */
  overrides?: Partial<Record<Caller, Expectation>>;
  /** The query parameters the route reads (the fuzz test mutates them). */
  query?: string[];
  /** A request an allowed caller succeeds with; may create what it acts on. */
  request: (fx: Fixtures) => Promise<SampleRequest>;
}

/**
 * The overrides of a route that changes a record of one store (a job of the
 * table's first store): the staff of another store are refused.
 */
export const STORE_SCOPED: RouteEntry["overrides"] = { OTHER_STORE: { status: 403 } };

/** The overrides of a route that is the chain's (its settings): a store admin is refused. */
export const CHAIN_WIDE_ONLY: RouteEntry["overrides"] = { STORE_ADMIN: { status: 403 } };

const SIGN_IN: Expectation = { status: 302, location: /^\/staff\?returnTo=%2F/ };
const NOTICE: Expectation = { status: 403, text: "Unauthorized" };
const KIOSK_NOTICE: Expectation = { status: 403, text: "not available on this tablet" };
const KIOSK_REFUSED: Expectation = { status: 403, text: "this tablet is in client mode" };

/** Routes answered before sessions are read: a kiosk gets what anyone gets. */
const BEFORE_SESSIONS = new Set(["/healthz", "/readyz", "/metrics", "/uploads/:name"]);

export const isKiosk = (caller: Caller) => caller === "KIOSK_INTAKE" || caller === "KIOSK_QUOTE";

/** What `access` means for each caller. */
export function expectedFor(entry: RouteEntry, caller: Caller): Expectation {
  const override = entry.overrides?.[caller];
  if (override) return override;
  if (isKiosk(caller)) {
    if (BEFORE_SESSIONS.has(entry.pattern)) return expectedFor(entry, "anonymous");
    // Never the sign-in page or a staff answer: the kiosk's own refusal.
    return entry.page ? KIOSK_NOTICE : KIOSK_REFUSED;
  }
  const denied = (): Expectation | undefined => {
    if (entry.access === "public") return undefined;
    if (caller === "anonymous") return entry.page ? SIGN_IN : { status: 401 };
    // A store admin is an ADMIN for every route's access; the few routes that
    // are the chain's (its settings) refuse them by an override.
    if (entry.access === "admin" && (caller === "AUTHORIZED_USER" || caller === "OTHER_STORE")) {
      return entry.page ? NOTICE : { status: 403 };
    }
    if (entry.access === "owner" && caller !== "OWNER") {
      return entry.page ? NOTICE : { status: 403 };
    }
    return undefined;
  };
  return denied() ?? entry.ok;
}
