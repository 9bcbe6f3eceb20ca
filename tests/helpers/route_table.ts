// Every route of the app with who may call it (the spec's role table, with
// the decisions of DESIGN.md) and a request that succeeds for an allowed
// caller. The route-table test calls each route as each caller and compares;
// the fuzz test mutates the same requests. A route added to the app without an
// entry here fails the route-table test.
//
// Callers are columns: to add one, add it to CALLERS, say in `expectedFor`
// what each access level means for it, and give the few routes it may use an
// `overrides` entry. The two kiosk columns are a tablet handed to a client for
// an intake and for one quote's options (issue 9): outside their allow-list
// every route must refuse them, whatever its access.
import type { DB } from "../../src/db/database.ts";
import type { Role } from "../../db/schema.ts";
import { insertUser } from "../../src/users/users.ts";
import { hashPassword } from "../../src/auth/password.ts";
import { issueResetToken } from "../../src/auth/password_reset.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { CatalogItem } from "../../src/catalog/catalog.ts";
import { call, kioskCookieFor, sessionCookieFor, type TestApp } from "./test_app.ts";
import { putFile, requestUploadUrl, setBrandingImage, svg } from "./images.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";

export const CALLERS = [
  "anonymous",
  "AUTHORIZED_USER",
  "ADMIN",
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

const SIGN_IN: Expectation = { status: 302, location: /^\/staff\?returnTo=%2F/ };
const NOTICE: Expectation = { status: 403, text: "Unauthorized" };
const KIOSK_NOTICE: Expectation = { status: 403, text: "not available on this tablet" };
const KIOSK_REFUSED: Expectation = { status: 403, text: "this tablet is in client mode" };

/** Routes answered before sessions are read: a kiosk gets what anyone gets. */
const BEFORE_SESSIONS = new Set(["/healthz", "/readyz", "/metrics", "/uploads/:name"]);

const isKiosk = (caller: Caller) => caller === "KIOSK_INTAKE" || caller === "KIOSK_QUOTE";

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
    if (entry.access === "admin" && caller === "AUTHORIZED_USER") {
      return entry.page ? NOTICE : { status: 403 };
    }
    if (entry.access === "owner" && caller !== "OWNER") {
      return entry.page ? NOTICE : { status: 403 };
    }
    return undefined;
  };
  return denied() ?? entry.ok;
}

/** Callers' accounts: a fresh user for every call, so no call can spoil another's session. */
export const TEST_PASSWORD = "route-table-pass";
let sharedHash: Promise<string> | undefined;
let counter = 0;

export async function freshUser(db: DB, role: Role) {
  sharedHash ??= hashPassword(TEST_PASSWORD);
  return await insertUser(db, {
    username: `rt${++counter}_${crypto.randomUUID().slice(0, 8)}`,
    firstName: "Route",
    email: null,
    role,
    passwordHash: await sharedHash,
  });
}

/** A Cookie header for `caller`; kiosk callers need the fixtures (a quote, who handed it over). */
export async function cookieFor(
  db: DB,
  caller: Caller,
  fx?: Fixtures,
): Promise<string | undefined> {
  if (caller === "anonymous") return undefined;
  if (isKiosk(caller)) {
    if (!fx) throw new Error(`cookieFor(${caller}) needs the fixtures`);
    const handedOverBy = (await freshUser(db, "AUTHORIZED_USER")).id;
    return caller === "KIOSK_QUOTE"
      ? await kioskCookieFor(db, { kind: "QUOTE", quoteId: await fx.kioskQuote(), handedOverBy })
      : await kioskCookieFor(db, { kind: "INTAKE", handedOverBy });
  }
  return await sessionCookieFor(db, (await freshUser(db, caller)).id);
}

/** What requests act on, made through the API as an owner. */
export class Fixtures {
  #owner?: string;
  #catalog?: CatalogItem[];
  constructor(readonly app: TestApp) {}

  async owner(): Promise<string> {
    return this.#owner ??= (await cookieFor(this.app.db, "OWNER"))!;
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await call<T>(this.app, method, path, { body, cookie: await this.owner() });
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  /** A new client (signed-out intake, so a consent may follow) and its draft quote. */
  async client(): Promise<CreatedClient> {
    const res = await call<CreatedClient>(this.app, "POST", "/api/clients", {
      body: {
        firstName: "Rita",
        lastName: `Table${++counter}`,
        email: "rita@example.com",
        mobilePhone: "555-010-1234",
      },
      cookie: await this.owner(),
    });
    return res.body;
  }

  quote(id: string) {
    return this.#call<QuoteBundle>("GET", `/api/quotes/${id}`);
  }

  /** A saved quote: ACTIVE when the client's measurements are complete. */
  async savedQuote(measured = true): Promise<QuoteBundle> {
    const { client, quote } = await this.client();
    if (measured) {
      await this.#call("PUT", `/api/clients/${client.id}/measurements`, {
        pdBinocular: "62",
        pdNear: "59",
        measurementsComplete: true,
      });
    }
    const bundle = await this.quote(quote.id);
    await this.#call("PUT", `/api/quotes/${quote.id}`, saveBody(bundle));
    return await this.quote(quote.id);
  }

  async closedQuote(): Promise<QuoteBundle> {
    const bundle = await this.savedQuote();
    return await this.#call("POST", `/api/quotes/${bundle.quote.id}/close`, { reason: "Test" });
  }

  async finalizedQuote(): Promise<QuoteBundle> {
    const bundle = await this.savedQuote();
    return await this.#call("POST", `/api/quotes/${bundle.quote.id}/finalize`);
  }

  #lab?: Promise<{ id: string }>;
  /** The lab every order of the table is made at. */
  lab(): Promise<{ id: string }> {
    return this.#lab ??= this.#call("POST", "/api/admin/labs", {
      name: `Route Lab ${++counter}`,
      email: "lab@example.com",
      turnaroundDays: 3,
    });
  }

  /** An order of one job, made from a finalized quote. */
  async order(): Promise<OrderBundle> {
    const quote = await this.finalizedQuote();
    return await this.#call("POST", `/api/quotes/${quote.quote.id}/order`, {
      labId: (await this.lab()).id,
    });
  }

  async catalogItem(): Promise<CatalogItem> {
    return await this.#call("POST", "/api/admin/add-ons", {
      name: `Add-on ${++counter}`,
      price: "5.00",
    });
  }

  async activeCatalog(): Promise<CatalogItem[]> {
    return this.#catalog ??= await this.#call("GET", "/api/catalog/add-ons");
  }

  /** A second quote of a measured client: it carried the first one's measurements over. */
  async carriedQuote(): Promise<{ id: string }> {
    const first = await this.savedQuote();
    return await this.#call("POST", "/api/quotes", { clientId: first.quote.clientId });
  }

  /** A client with one prescription. */
  async prescription(): Promise<{ id: string; clientId: string }> {
    const { client } = await this.client();
    return await this.#call("POST", `/api/clients/${client.id}/prescriptions`, PRESCRIPTION_BODY);
  }

  async staffUser() {
    return await freshUser(this.app.db, "AUTHORIZED_USER");
  }

  /** A saved quote's online link as its e-mail carries it (`/q/{token}`), fresh each call. */
  async onlineLink(): Promise<{ path: string; optionIds: string[] }> {
    const bundle = await this.savedQuote();
    const token = await createQuoteLink(this.app.db, {
      quoteId: bundle.quote.id,
      quoteVersion: bundle.quote.version,
      sentTo: "rita@example.com",
      createdBy: null,
    });
    return { path: `/q/${token}`, optionIds: bundle.options.map((o) => o.id) };
  }

  #kioskQuote?: Promise<string>;
  /** The quote every KIOSK_QUOTE caller's tablet was handed over for. */
  kioskQuote(): Promise<string> {
    return this.#kioskQuote ??= this.savedQuote().then((b) => b.quote.id);
  }

  /** A fresh upload URL holding an SVG: what the settings screen sends to /api/admin/logo. */
  async uploadedImage(purpose: "logo" | "favicon"): Promise<string> {
    const url = await requestUploadUrl(this.app, await this.owner(), purpose);
    const put = await putFile(this.app, url, svg(), {
      cookie: await this.owner(),
      contentType: "image/svg+xml",
    });
    if (put.status !== 200) throw new Error(`fixture upload: ${put.status} ${put.text}`);
    return url;
  }

  #servedLogo?: Promise<string>;
  /** The store's logo as served: /uploads/{hash}.svg. */
  servedLogo(): Promise<string> {
    return this.#servedLogo ??= this.owner().then((cookie) =>
      setBrandingImage(this.app, cookie, "logo", svg("", "#2266aa"), "image/svg+xml")
    );
  }

  /** A catalog CSV the import accepts: one new add-on. */
  catalogCsv(): string {
    return `name,price,active,sort_order\r\nCSV add-on ${++counter},7.50,true,90\r\n`;
  }
}

/** A valid prescription for POST/PUT /api/clients/{id}/prescriptions. */
export const PRESCRIPTION_BODY = {
  dateWritten: "2025-01-15",
  prescriber: "Dr. Route",
  rightEye: { sphere: "-2.25", cylinder: "-0.50", axis: 90 },
  leftEye: { sphere: "-2.00" },
};

/** The builder's save of a quote: one option with a frame. */
export function saveBody(bundle: QuoteBundle) {
  return {
    version: bundle.quote.version,
    opticianName: "Maria",
    internalNotes: "Route table",
    options: [{
      id: bundle.options[0]?.id ?? "temp-1",
      label: "Everyday",
      notes: "",
      isChosen: true,
      shipping: "0",
      adjustmentAmount: "0",
      adjustmentReason: "",
      segOc: "20/20",
      items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-1", unitPrice: "150.00", qty: 1 }],
    }],
  };
}

const html = { accept: "text/html" };
const ok = (status: number, location?: RegExp): Expectation => ({ status, location });

/**
 * A GET of a fixed path (the pattern itself when not given) or of one made
 * from the fixtures: most rows of the table differ only in these values.
 */
function get(
  pattern: string,
  access: Access,
  expected: Expectation,
  more: Pick<RouteEntry, "overrides" | "query" | "page"> & {
    path?: string | ((fx: Fixtures) => Promise<string>);
  } = {},
): RouteEntry {
  const { path = pattern, ...rest } = more;
  return {
    method: "GET",
    pattern,
    access,
    ok: expected,
    ...rest,
    request: async (fx) => ({
      path: typeof path === "string" ? path : await path(fx),
      ...(rest.page ? { headers: html } : {}),
    }),
  };
}

/** A page: a GET that asks for HTML, so a refusal is a page too. */
const page = (...[pattern, access, expected, more]: Parameters<typeof get>) =>
  get(pattern, access, expected, { ...more, page: true });

const SECTION = "packages|lens-types|materials|ar-coatings|add-ons";

export const ROUTES: RouteEntry[] = [
  // ---- Health ----
  get("/healthz", "public", ok(200)),

  get("/readyz", "public", ok(200)),
  {
    // Off unless METRICS_TOKEN is set (it is not here): a 404 page for everyone.
    method: "GET",
    pattern: "/metrics",
    page: true,
    access: "public",
    ok: ok(404),
    request: () =>
      Promise.resolve({ path: "/metrics", headers: { authorization: "Bearer guess" } }),
  },
  {
    // Uploaded images are public: the logo shows on the sign-in page.
    method: "GET",
    pattern: "/uploads/:name",
    access: "public",
    ok: ok(200),
    request: async (fx) => ({ path: await fx.servedLogo() }),
  },

  // ---- Sign-in and session ----
  {
    method: "POST",
    pattern: "/api/staff/login",
    access: "public",
    ok: ok(200),
    request: async (fx) => {
      const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
      return {
        path: "/api/staff/login",
        body: { username: user.username, password: TEST_PASSWORD, returnTo: "/clients" },
      };
    },
  },
  get("/api/auth/user", "staff", ok(200)),
  {
    method: "PUT",
    pattern: "/api/auth/change-password",
    access: "staff",
    ok: ok(200),
    request: () =>
      Promise.resolve({
        path: "/api/auth/change-password",
        body: { currentPassword: TEST_PASSWORD, newPassword: "a-new-password" },
      }),
  },
  {
    method: "POST",
    pattern: "/api/auth/forgot-password",
    access: "public",
    ok: ok(200),
    // A fresh address each time, so the per-address limit never answers instead.
    request: () =>
      Promise.resolve({
        path: "/api/auth/forgot-password",
        body: { email: `rt-${crypto.randomUUID().slice(0, 8)}@nowhere.test` },
      }),
  },
  {
    method: "POST",
    pattern: "/api/auth/reset-password",
    access: "public",
    ok: ok(200),
    request: async (fx) => {
      const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
      const token = await issueResetToken(fx.app.db, user.id);
      return { path: "/api/auth/reset-password", body: { token, newPassword: "reset-by-link" } };
    },
  },
  {
    method: "POST",
    pattern: "/api/auth/two-factor/verify",
    access: "public",
    // No sign-in step under way (no password given first): sign in again.
    ok: ok(401),
    request: () =>
      Promise.resolve({ path: "/api/auth/two-factor/verify", body: { code: "123456" } }),
  },
  {
    method: "POST",
    pattern: "/api/auth/two-factor/setup",
    access: "admin",
    ok: ok(200),
    request: () => Promise.resolve({ path: "/api/auth/two-factor/setup" }),
  },
  {
    method: "POST",
    pattern: "/api/auth/two-factor/enable",
    access: "admin",
    // A fresh account has begun no enrolment, so no code can match.
    ok: ok(400),
    request: () =>
      Promise.resolve({ path: "/api/auth/two-factor/enable", body: { code: "123456" } }),
  },
  {
    method: "DELETE",
    pattern: "/api/auth/two-factor",
    access: "admin",
    // A fresh account has no second factor, so no code is right.
    ok: ok(400),
    request: () => Promise.resolve({ path: "/api/auth/two-factor", body: { code: "123456" } }),
  },
  {
    method: "PUT",
    pattern: "/api/admin/two-factor-policy",
    access: "owner",
    ok: ok(200),
    request: () =>
      Promise.resolve({ path: "/api/admin/two-factor-policy", body: { required: false } }),
  },
  get("/api/staff/logout", "public", ok(302, /^\/staff$/)),
  get("/api/logout", "public", ok(302, /^\/$/)),
  // Staff always sign in on /staff; the owner's provider only with intent=owner.
  get("/api/login", "public", ok(302, /^\/staff\?returnTo=%2Fquotes$/), {
    query: ["returnTo", "intent"],
    path: "/api/login?returnTo=%2Fquotes",
  }),
  get("/api/callback", "public", ok(302, /^\/staff\?owner=failed$/), {
    query: ["code", "state"],
    path: "/api/callback?code=x&state=y",
  }),

  // ---- Online acceptance (public: the link's token is the credential) ----
  page("/q/:token", "public", { status: 200, text: "Accept this quote" }, {
    path: async (fx) => (await fx.onlineLink()).path,
  }),
  {
    method: "POST",
    pattern: "/q/:token/accept",
    access: "public",
    ok: ok(200),
    request: async (fx) => {
      const link = await fx.onlineLink();
      return {
        path: `${link.path}/accept`,
        body: {
          chosenOptionIds: link.optionIds,
          signerName: "Rita Table",
          typedSignature: true,
          termsAccepted: true,
        },
      };
    },
  },
  {
    method: "POST",
    pattern: "/q/:token/decline",
    access: "public",
    ok: ok(200),
    request: async (fx) => ({
      path: `${(await fx.onlineLink()).path}/decline`,
      body: { message: "Not now" },
    }),
  },

  // ---- Intake (public) ----
  {
    method: "GET",
    pattern: "/api/settings",
    access: "public",
    ok: ok(200),
    overrides: { KIOSK_INTAKE: ok(200) },
    request: () => Promise.resolve({ path: "/api/settings" }),
  },
  {
    method: "GET",
    pattern: "/api/heard-how-options",
    access: "public",
    ok: ok(200),
    overrides: { KIOSK_INTAKE: ok(200) },
    request: () => Promise.resolve({ path: "/api/heard-how-options" }),
  },
  {
    method: "POST",
    pattern: "/api/clients",
    access: "public",
    ok: ok(201),
    // The intake kiosk registers its one client (each caller here is a fresh kiosk).
    overrides: { KIOSK_INTAKE: ok(201) },
    request: () =>
      Promise.resolve({
        path: "/api/clients",
        body: {
          firstName: "Ivy",
          lastName: "Intake",
          email: "ivy@example.com",
          mobilePhone: "555-010-7777",
          state: "TX",
          heardHowId: "other",
          heardHowText: "A friend",
          smsConsent: true,
        },
      }),
  },
  {
    method: "POST",
    pattern: "/api/consent",
    access: "public",
    ok: ok(201),
    // A kiosk records consent only for the client its own intake registered.
    overrides: {
      KIOSK_INTAKE: { status: 403, text: "only record the consent of the client it registered" },
    },
    request: async (fx) => {
      const { client } = await fx.client();
      return {
        path: "/api/consent",
        body: {
          clientId: client.id,
          type: "SMS",
          statement: "I agree to texts",
          target: "555-010-1234",
          consentGiven: true,
        },
      };
    },
  },

  // ---- Clients (staff) ----
  get("/api/clients", "staff", ok(200), {
    query: ["limit", "offset", "filter"],
    path: "/api/clients?limit=5&offset=0&filter=missing",
  }),
  get("/api/clients/search", "staff", ok(200), {
    query: ["q", "limit", "offset"],
    path: "/api/clients/search?q=rita&limit=5",
  }),
  get("/api/clients/missing-measurements", "staff", ok(200), {
    query: ["limit", "offset"],
    path: "/api/clients/missing-measurements?limit=5",
  }),
  get("/api/clients/:id", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.client()).client.id}`,
  }),
  {
    method: "PUT",
    pattern: "/api/clients/:id",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/clients/${(await fx.client()).client.id}`,
      body: { firstName: "Rita", lastName: "Edited", email: "rita@example.org", city: "Austin" },
    }),
  },
  {
    method: "DELETE",
    pattern: "/api/clients/:id",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({ path: `/api/clients/${(await fx.client()).client.id}` }),
  },
  {
    method: "PUT",
    pattern: "/api/clients/:id/measurements",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/clients/${(await fx.client()).client.id}/measurements`,
      body: { pdBinocular: "62.5", pdNear: "59", measurementsComplete: true },
    }),
  },
  get("/api/clients/:id/prescriptions", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.prescription()).clientId}/prescriptions`,
  }),
  {
    method: "POST",
    pattern: "/api/clients/:id/prescriptions",
    access: "staff",
    ok: ok(201),
    request: async (fx) => ({
      path: `/api/clients/${(await fx.client()).client.id}/prescriptions`,
      body: PRESCRIPTION_BODY,
    }),
  },
  {
    method: "PUT",
    pattern: "/api/clients/:id/prescriptions/:prescriptionId",
    access: "staff",
    ok: ok(200),
    request: async (fx) => {
      const rx = await fx.prescription();
      return {
        path: `/api/clients/${rx.clientId}/prescriptions/${rx.id}`,
        body: { ...PRESCRIPTION_BODY, prescriber: "Dr. Edited" },
      };
    },
  },
  {
    method: "DELETE",
    pattern: "/api/clients/:id/prescriptions/:prescriptionId",
    access: "staff",
    ok: ok(200),
    request: async (fx) => {
      const rx = await fx.prescription();
      return { path: `/api/clients/${rx.clientId}/prescriptions/${rx.id}` };
    },
  },

  // ---- Quotes (staff) ----
  {
    method: "POST",
    pattern: "/api/quotes",
    access: "staff",
    ok: ok(201),
    request: async (fx) => ({
      path: "/api/quotes",
      body: { clientId: (await fx.client()).client.id },
    }),
  },
  get("/api/stats", "staff", ok(200)),
  get("/api/quotes/recent", "staff", ok(200)),
  get("/api/quotes/expired", "staff", ok(200)),
  get("/api/quotes", "staff", ok(200), {
    query: ["q", "search", "status", "filter", "limit", "offset"],
    path: "/api/quotes?q=rita&status=ACTIVE&limit=10&offset=0",
  }),
  get("/api/quotes/:id", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}`,
  }),
  {
    method: "PUT",
    pattern: "/api/quotes/:id",
    access: "staff",
    ok: ok(200),
    request: async (fx) => {
      const { client, quote } = await fx.client();
      void client;
      const bundle = await fx.quote(quote.id);
      return { path: `/api/quotes/${quote.id}`, body: saveBody(bundle) };
    },
  },
  {
    method: "DELETE",
    pattern: "/api/quotes/:id",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({ path: `/api/quotes/${(await fx.client()).quote.id}` }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/close",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.savedQuote()).quote.id}/close`,
      body: { reason: "Client will come back later" },
    }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/reactivate",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.closedQuote()).quote.id}/reactivate`,
    }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/carry-over/confirm",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.carriedQuote()).id}/carry-over/confirm`,
    }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/finalize",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.savedQuote()).quote.id}/finalize`,
    }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/reopen",
    access: "owner",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.finalizedQuote()).quote.id}/reopen`,
      body: { reason: "Client changed the lenses" },
    }),
  },
  get("/api/labs", "staff", ok(200)),
  get("/api/admin/labs", "admin", ok(200)),
  {
    method: "POST",
    pattern: "/api/admin/labs",
    access: "admin",
    ok: ok(201),
    request: () =>
      Promise.resolve({
        path: "/api/admin/labs",
        body: { name: `Lab ${crypto.randomUUID()}`, turnaroundDays: 5 },
      }),
  },
  {
    method: "PUT",
    pattern: "/api/admin/labs/:id",
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/admin/labs/${(await fx.lab()).id}`,
      body: { name: `Route Lab ${crypto.randomUUID()}`, turnaroundDays: 3 },
    }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/order",
    access: "staff",
    ok: ok(201),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.finalizedQuote()).quote.id}/order`,
      body: { labId: (await fx.lab()).id },
    }),
  },
  get("/api/orders", "staff", ok(200), {
    query: ["q", "status", "late", "waiting", "labId", "optician", "page"],
    path: "/api/orders?q=rita&late=1",
  }),
  get("/api/orders/:id", "staff", ok(200), {
    path: async (fx) => `/api/orders/${(await fx.order()).order.id}`,
  }),
  {
    method: "POST",
    pattern: "/api/orders/:id/payments",
    access: "staff",
    ok: ok(201),
    request: async (fx) => ({
      path: `/api/orders/${(await fx.order()).order.id}/payments`,
      // Yesterday: a day in the payment's window whatever the store's time zone.
      body: { amount: "10.00", method: "CASH", paidOn: daysFromToday(-1) },
    }),
  },
  {
    method: "POST",
    pattern: "/api/jobs/:id/step",
    access: "staff",
    ok: ok(200),
    request: async (fx) => {
      const job = (await fx.order()).jobs[0];
      return {
        path: `/api/jobs/${job.id}/step`,
        body: { to: "SENT_TO_LAB", version: job.version },
      };
    },
  },
  {
    method: "PUT",
    pattern: "/api/jobs/:id/promised-date",
    access: "staff",
    ok: ok(200),
    request: async (fx) => {
      const job = (await fx.order()).jobs[0];
      return {
        path: `/api/jobs/${job.id}/promised-date`,
        body: { promisedDate: daysFromToday(30), reason: "Lab said so", version: job.version },
      };
    },
  },
  get("/api/orders/:id/work-order.pdf", "staff", ok(200), {
    query: ["paper", "job"],
    path: async (fx) => `/api/orders/${(await fx.order()).order.id}/work-order.pdf`,
  }),
  {
    method: "POST",
    pattern: "/api/orders/:id/work-order/email",
    access: "staff",
    // The table's store has no mail server: the call is refused as such.
    ok: ok(409),
    request: async (fx) => ({
      path: `/api/orders/${(await fx.order()).order.id}/work-order/email`,
      body: {},
    }),
  },
  get("/api/reports/orders", "admin", ok(200), {
    query: ["from", "to", "optician"],
    path: "/api/reports/orders?from=2026-01-01&to=2026-12-31",
  }),
  get(
    "/api/reports/orders/:file{(?:turnaround|remakes|payments|balances)\\.csv}",
    "admin",
    ok(200),
    { query: ["from", "to"], path: "/api/reports/orders/payments.csv" },
  ),
  get("/api/clients/:id/orders", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.client()).client.id}/orders`,
  }),
  get("/api/quotes/:id/pdf", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/pdf`,
  }),
  get("/api/quotes/:id/online", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/online`,
  }),
  // Only a quote accepted online has one; the route and its guard are what is checked here.
  get("/api/quotes/:id/signed-pdf", "staff", { status: 404, text: "not accepted online" }, {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/signed-pdf`,
  }),
  {
    method: "POST",
    pattern: "/api/quotes/:id/online-links/revoke",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.savedQuote()).quote.id}/online-links/revoke`,
    }),
  },
  {
    method: "POST",
    pattern: "/api/quotes/:id/email",
    access: "staff",
    // E-mail is not configured in this app: refused with the spec's message.
    ok: ok(409),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.savedQuote()).quote.id}/email`,
      body: { email: "rita@example.com", note: "Here it is" },
    }),
  },
  {
    method: "PUT",
    pattern: "/api/quote-options/:id/measurements",
    access: "staff",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/quote-options/${(await fx.savedQuote()).options[0].id}/measurements`,
      body: { segOc: "21/21" },
    }),
  },
  get("/api/catalog/:section", "staff", ok(200), { path: "/api/catalog/lens-types" }),

  // ---- Administration ----
  get("/api/admin/settings", "admin", ok(200)),
  {
    method: "PUT",
    pattern: "/api/admin/settings",
    access: "admin",
    ok: ok(200),
    request: () =>
      Promise.resolve({
        path: "/api/admin/settings",
        body: {
          storeName: "Route Table Optical",
          storeAddress: "1 Lens Lane\nSpringfield",
          quoteExpirationEnabled: true,
          quoteExpirationDays: 30,
          emailSubject: "Quote from {store}",
        },
      }),
  },
  get("/api/admin/oauth2-status", "staff", ok(200)),
  {
    method: "POST",
    pattern: "/api/admin/test-email",
    access: "admin",
    // Not configured here: a clear 409 rather than a send.
    ok: ok(409),
    request: () =>
      Promise.resolve({ path: "/api/admin/test-email", body: { email: "me@example.com" } }),
  },
  {
    method: "POST",
    pattern: "/api/email-banner/dismiss",
    access: "staff",
    ok: ok(303, /^\/clients$/),
    request: () =>
      Promise.resolve({
        path: "/api/email-banner/dismiss",
        body: "returnTo=%2Fclients",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
  },
  get("/api/admin/users", "admin", ok(200)),
  {
    method: "POST",
    pattern: "/api/admin/users/invite",
    access: "admin",
    ok: ok(201),
    request: () =>
      Promise.resolve({
        path: "/api/admin/users/invite",
        body: {
          email: "new@store.test",
          firstName: "Nia",
          lastName: "New",
          username: `nia${crypto.randomUUID().slice(0, 8)}`,
          password: "secret1",
          role: "AUTHORIZED_USER",
        },
      }),
  },
  {
    method: "DELETE",
    pattern: "/api/admin/users/:id",
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({ path: `/api/admin/users/${(await fx.staffUser()).id}` }),
  },
  {
    method: "PUT",
    pattern: "/api/admin/users/:id/password",
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/admin/users/${(await fx.staffUser()).id}/password`,
      body: { newPassword: "reset-pass" },
    }),
  },
  {
    method: "POST",
    pattern: "/api/admin/users/:id/reset-email",
    access: "admin",
    // E-mail is not configured in this app: the action says so instead of failing.
    ok: { status: 409, text: "Email is not configured" },
    request: async (fx) => {
      const user = await fx.staffUser();
      await fx.app.db.updateTable("users").set({ email: "staff@store.test" })
        .where("id", "=", user.id).execute();
      return { path: `/api/admin/users/${user.id}/reset-email` };
    },
  },
  {
    method: "DELETE",
    pattern: "/api/admin/users/:id/two-factor",
    access: "owner",
    // An admin with two-factor sign-in on and no e-mail address: the answer says to tell them.
    ok: { status: 200, text: "tell them yourself" },
    request: async (fx) => {
      const admin = await freshUser(fx.app.db, "ADMIN");
      await fx.app.db.updateTable("users").set({ totpEnabledAt: new Date() })
        .where("id", "=", admin.id).execute();
      return { path: `/api/admin/users/${admin.id}/two-factor` };
    },
  },
  {
    method: "PUT",
    pattern: "/api/admin/users/:id",
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/admin/users/${(await fx.staffUser()).id}`,
      body: { role: "ADMIN" },
    }),
  },
  {
    method: "GET",
    pattern: `/api/admin/:section{${SECTION}}`,
    access: "admin",
    ok: ok(200),
    request: () => Promise.resolve({ path: "/api/admin/materials" }),
  },
  {
    method: "POST",
    pattern: `/api/admin/:section{${SECTION}}`,
    access: "admin",
    ok: ok(201),
    request: () =>
      Promise.resolve({
        path: "/api/admin/packages",
        body: {
          name: `Package ${crypto.randomUUID().slice(0, 6)}`,
          description: "Lenses, coating\nand case",
          price: 129,
          active: true,
          sortOrder: 3,
        },
      }),
  },
  {
    method: "PUT",
    pattern: `/api/admin/:section{${SECTION}}/:id`,
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({
      path: `/api/admin/add-ons/${(await fx.catalogItem()).id}`,
      body: { name: "Renamed add-on", price: "7.50", active: true, sortOrder: 1 },
    }),
  },
  {
    method: "DELETE",
    pattern: `/api/admin/:section{${SECTION}}/:id`,
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({ path: `/api/admin/add-ons/${(await fx.catalogItem()).id}` }),
  },
  {
    method: "GET",
    pattern: `/api/admin/:section{${SECTION}}/export.csv`,
    access: "admin",
    ok: ok(200),
    request: () => Promise.resolve({ path: "/api/admin/add-ons/export.csv" }),
  },
  {
    method: "GET",
    pattern: `/api/admin/:section{${SECTION}}/template.csv`,
    access: "admin",
    ok: ok(200),
    request: () => Promise.resolve({ path: "/api/admin/lens-types/template.csv" }),
  },
  {
    method: "POST",
    pattern: `/api/admin/:section{${SECTION}}/import/preview`,
    access: "admin",
    ok: ok(200),
    request: (fx) =>
      Promise.resolve({
        path: "/api/admin/add-ons/import/preview",
        body: fx.catalogCsv(),
        headers: { "content-type": "text/csv" },
      }),
  },
  {
    method: "POST",
    pattern: `/api/admin/:section{${SECTION}}/import`,
    access: "admin",
    ok: ok(200),
    query: ["fingerprint"],
    request: (fx) =>
      Promise.resolve({
        path: "/api/admin/add-ons/import",
        body: fx.catalogCsv(),
        headers: { "content-type": "text/csv" },
      }),
  },

  // ---- Uploads and branding (ADMIN, OWNER) ----
  {
    method: "POST",
    pattern: "/api/objects/upload",
    access: "admin",
    ok: ok(200),
    request: () => Promise.resolve({ path: "/api/objects/upload", body: { purpose: "logo" } }),
  },
  {
    // The file itself, raw, to a signed upload URL. Each caller is an account
    // of its own, not the one the URL was issued to, so it is refused to them
    // (uploads_test sends files as the one who asked).
    method: "PUT",
    pattern: "/api/objects/upload/:id",
    access: "admin",
    ok: { status: 403, text: "issued to someone else" },
    request: async (fx) => ({
      path: await requestUploadUrl(fx.app, await fx.owner(), "logo"),
      body: new TextDecoder().decode(svg()),
      headers: { "content-type": "image/svg+xml" },
    }),
  },
  {
    method: "PUT",
    pattern: "/api/admin/logo",
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({
      path: "/api/admin/logo",
      body: { logoUrl: await fx.uploadedImage("logo") },
    }),
  },
  {
    method: "PUT",
    pattern: "/api/admin/favicon",
    access: "admin",
    ok: ok(200),
    request: async (fx) => ({
      path: "/api/admin/favicon",
      body: { faviconUrl: await fx.uploadedImage("favicon") },
    }),
  },

  // ---- Kiosk: the tablet handed to a client ----
  {
    method: "POST",
    pattern: "/api/kiosk/hand-over",
    access: "staff",
    ok: ok(201),
    request: () => Promise.resolve({ path: "/api/kiosk/hand-over", body: { kind: "INTAKE" } }),
  },
  {
    // Taking the tablet back: any staff member's username and password.
    method: "POST",
    pattern: "/api/kiosk/return",
    access: "public",
    ok: ok(200),
    overrides: { KIOSK_INTAKE: ok(200), KIOSK_QUOTE: ok(200) },
    request: async (fx) => {
      const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
      return {
        path: "/api/kiosk/return",
        body: { username: user.username, password: TEST_PASSWORD },
      };
    },
  },
  {
    // The tablet's own view of its quote; staff read GET /api/quotes/{id} instead.
    method: "GET",
    pattern: "/api/kiosk/quote",
    access: "staff",
    ok: ok(403),
    overrides: { KIOSK_QUOTE: ok(200) },
    request: () => Promise.resolve({ path: "/api/kiosk/quote" }),
  },

  // ---- History, audit log, search ----
  get("/api/clients/:id/history", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.client()).client.id}/history`,
  }),
  get("/api/quotes/:id/history", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/history`,
  }),
  get("/api/admin/audit", "owner", ok(200), {
    query: ["from", "to", "user", "kind", "before", "after"],
    path: "/api/admin/audit?from=2026-01-01&to=2100-01-01&kind=client",
  }),
  get("/api/search", "staff", ok(200), { query: ["q"], path: "/api/search?q=rita" }),

  // ---- Reports (ADMIN, OWNER) ----
  get("/api/reports/conversion", "admin", ok(200), {
    query: ["from", "to", "optician"],
    path: "/api/reports/conversion?from=2026-01-01&to=2026-03-31",
  }),
  get("/api/reports/conversion.csv", "admin", ok(200), {
    query: ["from", "to", "optician"],
    path: "/api/reports/conversion.csv?from=2026-01-01&to=2026-03-31",
  }),

  {
    // Any other /api path: a JSON 404, signed in or not.
    method: "ALL",
    pattern: "/api/*",
    access: "public",
    ok: ok(404),
    request: () => Promise.resolve({ path: "/api/no-such-call" }),
  },

  // ---- Pages ----
  page("/", "public", ok(200)),
  page("/dashboard", "staff", ok(200)),
  // Signed in: straight on to the (local) returnTo.
  page("/staff", "public", ok(302, /^\/clients$/), {
    overrides: { anonymous: { status: 200, text: "Staff Portal" } },
    query: ["returnTo", "owner"],
    path: "/staff?returnTo=%2Fclients",
  }),
  {
    // The sign-in form without JavaScript: anyone may post it; right details redirect.
    method: "POST",
    pattern: "/staff",
    page: true,
    access: "public",
    ok: ok(303, /^\/clients$/),
    request: async (fx) => {
      const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
      const form = new URLSearchParams({
        username: user.username,
        password: TEST_PASSWORD,
        returnTo: "/clients",
      });
      return {
        path: "/staff",
        body: form.toString(),
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
      };
    },
  },
  page("/forgot-password", "public", { status: 200, text: "Send Reset Instructions" }),
  {
    // The forgotten-password form without JavaScript: the same answer for any address.
    method: "POST",
    pattern: "/forgot-password",
    page: true,
    access: "public",
    ok: { status: 200, text: "Check Your Email" },
    request: () =>
      Promise.resolve({
        path: "/forgot-password",
        // A fresh address each time, so the per-address limit never answers instead.
        body: new URLSearchParams({ email: `rt-${crypto.randomUUID().slice(0, 8)}@nowhere.test` })
          .toString(),
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
      }),
  },
  page("/reset-password", "public", { status: 200, text: "Confirm New Password" }, {
    query: ["token"],
    path: "/reset-password?token=abc",
  }),
  page("/account/password", "staff", { status: 200, text: "Current Password" }),
  page("/account/two-factor", "admin", { status: 200, text: "Two-Factor Sign-In" }),
  // The second-factor step; without a live challenge cookie it is back to the sign-in.
  page("/staff/two-factor", "public", ok(302, /^\/staff$/)),
  page("/intake", "public", { status: 200, text: "Submit Intake Form" }, {
    overrides: { KIOSK_INTAKE: { status: 200, text: "Submit Intake Form" } },
  }),
  page("/clients", "staff", ok(200), {
    query: ["filter", "id"],
    path: async (fx) => `/clients?filter=missing&id=${(await fx.client()).client.id}`,
  }),
  page("/quote", "staff", ok(302, /^\/clients$/)),
  page("/quote/", "staff", ok(302, /^\/clients$/)),
  page("/quote/:id", "staff", { status: 200, text: "Quote Builder" }, {
    path: async (fx) => `/quote/${(await fx.savedQuote()).quote.id}`,
  }),
  page("/tablet/:quoteId", "staff", { status: 200, text: "Select Your Preferred Options" }, {
    path: async (fx) => `/tablet/${(await fx.savedQuote()).quote.id}`,
  }),
  page("/print", "staff", { status: 404, text: "No quote data to print" }),
  page("/print/", "staff", { status: 404, text: "No quote data to print" }),
  page("/print/:id", "staff", { status: 200, text: "Print Quote" }, {
    query: ["external", "copy", "noprint"],
    path: async (fx) => `/print/${(await fx.savedQuote()).quote.id}?copy=internal`,
  }),
  page("/quote/:id/client-print", "staff", { status: 200, text: "Your Quote" }, {
    query: ["noprint"],
    path: async (fx) => `/quote/${(await fx.savedQuote()).quote.id}/client-print?noprint=1`,
  }),
  page("/quotes", "staff", { status: 200, text: "Quote Management" }, {
    query: ["q", "status", "filter"],
    path: "/quotes?q=rita&filter=expired",
  }),
  page("/admin", "admin", ok(200)),
  page("/admin/:section", "admin", ok(200), { path: "/admin/ar-coatings" }),
  page("/admin/settings", "admin", { status: 200, text: "Admin Settings" }),
  page("/admin/users", "admin", ok(200)),
  page("/orders", "staff", { status: 200, text: "Orders" }, {
    query: ["q", "status", "late", "waiting", "labId", "optician", "page"],
    path: "/orders?q=rita&late=1",
  }),
  page("/orders/:id", "staff", { status: 200, text: "Payments" }, {
    path: async (fx) => `/orders/${(await fx.order()).order.id}`,
  }),
  page("/orders/:id/work-order", "staff", { status: 200, text: "LAB WORK ORDER" }, {
    query: ["paper", "job"],
    path: async (fx) => `/orders/${(await fx.order()).order.id}/work-order?paper=a4`,
  }),
  page("/orders/:id/receipt", "staff", { status: 200, text: "RECEIPT" }, {
    path: async (fx) => `/orders/${(await fx.order()).order.id}/receipt`,
  }),
  page("/admin/labs", "admin", { status: 200, text: "Labs" }),
  page("/admin/audit", "owner", { status: 200, text: "Audit Log" }, {
    query: ["from", "to", "user", "kind", "before", "after"],
    path: "/admin/audit?kind=client",
  }),
  page("/reports", "admin", { status: 200, text: "Reports" }, {
    query: ["from", "to", "optician"],
    path: "/reports?from=2026-01-01&to=2026-03-31",
  }),
];

/**
 * Patterns the app registers for every method that are middleware, not
 * routes (guards, static files). A new one must be added here on purpose.
 */
export const MIDDLEWARE_PATTERNS = new Set([
  "/*",
  "/static/*",
  "/static/build/*",
  "/uploads/*",
  "/api/clients/*",
  "/api/quotes/:id/pdf",
  "/api/quotes/:id/online",
  "/api/quotes/:id/online-links/*",
  "/api/quotes/:id/signed-pdf",
  "/api/quotes",
  "/api/quotes/*",
  "/api/quote-options/*",
  "/api/stats",
  "/api/catalog/*",
]);

/** The app's routes as `METHOD pattern`, middleware left out. */
export function appRoutes(app: TestApp["app"]): Set<string> {
  const out = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" && MIDDLEWARE_PATTERNS.has(r.path)) continue;
    out.add(`${r.method} ${r.path}`);
  }
  return out;
}

/** YYYY-MM-DD `days` from today (UTC): the order routes' samples stay inside their windows. */
function daysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
