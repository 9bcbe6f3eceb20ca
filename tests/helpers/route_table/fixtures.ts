// The accounts and the records the route table's requests act on.
import { type Caller, isKiosk } from "./expectations.ts";
import type { Role } from "../../../db/schema.ts";
import type { CatalogItem } from "../../../src/catalog/catalog.ts";
import type { CreatedClient } from "../../../src/clients/views.ts";
import type { DB } from "../../../src/db/database.ts";
import type { OrderBundle } from "../../../src/orders/views.ts";
import { createQuoteLink } from "../../../src/quotes/online_links.ts";
import type { QuoteBundle } from "../../../src/quotes/views.ts";
import { insertUser } from "../../../src/users/users.ts";
import { addUserStores, findFirstStore, replaceUserStores } from "../../../src/stores/stores.ts";
import { putFile, requestUploadUrl, setBrandingImage, svg } from "../images.ts";
import { call, kioskCookieFor, sessionCookieFor, type TestApp, testHash } from "../test_app.ts";

/** Callers' accounts: a fresh user for every call, so no call can spoil another's session. */
export const TEST_PASSWORD = "route-table-pass";
let counter = 0;

export async function freshUser(db: DB, role: Role, chainAdmin = true) {
  const user = await insertUser(db, {
    username: `rt${++counter}_${crypto.randomUUID().slice(0, 8)}`,
    firstName: "Route",
    email: null,
    role,
    chainAdmin,
    passwordHash: await testHash(TEST_PASSWORD),
  });
  await addUserStores(db, user.id, [(await findFirstStore(db)).id]);
  return user;
}

/**
 * The chain's second store, "OTHER" (after the first, MAIN, by code), made
 * the first time another store's staff member calls.
 */
async function otherStoreId(db: DB): Promise<string> {
  const found = await db.selectFrom("stores").select("id").where("code", "=", "OTHER")
    .executeTakeFirst();
  if (found) return found.id;
  return (await db.insertInto("stores").values({ code: "OTHER", name: "Other Store" })
    .onConflict((oc) => oc.column("code").doNothing()).returning("id").executeTakeFirst())?.id ??
    await otherStoreId(db);
}

/** Forgets the password-reset requests counted so far (src/auth/reset_limits.ts). */
export async function forgetResetCounts(fx: Fixtures): Promise<void> {
  await fx.app.db.deleteFrom("passwordResetRequests").execute();
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
  if (caller === "OTHER_STORE") {
    const user = await freshUser(db, "AUTHORIZED_USER");
    await replaceUserStores(db, user.id, [await otherStoreId(db)]);
    return await sessionCookieFor(db, user.id);
  }
  const user = caller === "STORE_ADMIN"
    ? await freshUser(db, "ADMIN", false)
    : await freshUser(db, caller);
  return await sessionCookieFor(db, user.id);
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
