// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// The quote workflow's rules that protect what a client receives: the store's
// contact line and the validity date on every copy, no e-mail or tablet
// confirmation of an expired quote, no complete measurements without a
// distance PD, and no option total below zero or quantity silently changed.
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
} from "../helpers/test_app.ts";
import { mailSettingsFor, startSmtpServer } from "../helpers/smtp.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { pdfPageTexts, squash } from "../../src/pdf/pdf_text.ts";
import { STORE_FALLBACKS } from "../../src/settings/settings.ts";
import { EXPIRED_CONFIRM_MESSAGE, EXPIRED_EMAIL_MESSAGE, MAX_QTY } from "../../src/quotes/rules.ts";
import { PD_REQUIRED_FOR_COMPLETE } from "../../src/schemas/client.ts";
import { formatDate } from "../../src/print/print_model.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let owner: string;
let staff: string;
let staffId: string;

// A busy shared machine may take over the default 30 s for the first PDF (as in quote_pdf_test).
useTestApp(async (started) => {
  ({ app, smtp } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  staffId = (await createTestUser(app.db)).id;
  staff = await sessionCookieFor(app.db, staffId);
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: mailSettingsFor(smtp, { fromEmail: "quotes@store.test" }),
  });
  expect(res.status).toBe(200);
  // Every contact setting blank, as a store that never filled them in.
  await app.db.updateTable("settings").set({
    storeName: null,
    storePhone: "",
    storeEmail: null,
    storeAddress: "  ",
    storeWebsite: null,
  }).execute();
}, { env: { PDF_TIMEOUT_MS: "180000" }, smtp: true });

const DAY = 24 * 60 * 60 * 1000;
const fallbackParts = [
  STORE_FALLBACKS.storeName,
  STORE_FALLBACKS.storePhone,
  STORE_FALLBACKS.storeEmail,
  STORE_FALLBACKS.storeAddress,
];

const bundleOf = async (id: string) =>
  (await call<QuoteBundle>(app, "GET", `/api/quotes/${id}`, { cookie: staff })).body;

async function page(path: string) {
  const res = await call(app, "GET", path, { cookie: staff, headers: { accept: "text/html" } });
  expect(res.status).toBe(200);
  // Text as a reader sees it: tags out, entities that matter here decoded.
  return res.text.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/\s+/g, " ");
}

async function pdfText(id: string) {
  const res = await fetch(`${app.baseUrl}/api/quotes/${id}/pdf`, { headers: { cookie: staff } });
  expect(res.status).toBe(200);
  return (await pdfPageTexts(new Uint8Array(await res.arrayBuffer()))).map(squash);
}

const selection = (bundle: QuoteBundle) => ({
  version: bundle.quote.version,
  options: bundle.options.map((o, i) => ({ id: o.id, isChosen: i === 0 })),
});

describe("store contact fallbacks and the validity date", () => {
  it("prints every fallback and 'Valid until {date}' on the client copies and in the PDF", async () => {
    const expiresAt = new Date(Date.now() + 20 * DAY);
    const { quoteId } = await insertSavedQuote(app.db, { expiresAt });
    const validity = `Valid until ${formatDate(expiresAt.toISOString())}`;
    for (const path of [`/print/${quoteId}`, `/quote/${quoteId}/client-print?noprint=1`]) {
      const text = await page(path);
      for (const part of fallbackParts) expect(text).toContain(part);
      expect(text).toContain(validity);
    }
    const pages = await pdfText(quoteId);
    expect(pages.length).toBe(2);
    for (const pdfPage of pages) {
      for (const part of fallbackParts) expect(pdfPage).toContain(squash(part));
      expect(pdfPage).toContain(squash(validity));
    }
  });

  it("signs the e-mail with every fallback", async () => {
    const { quoteId } = await insertSavedQuote(app.db, {
      expiresAt: new Date(Date.now() + 20 * DAY),
    });
    const before = smtp.received.length;
    const res = await call(app, "POST", `/api/quotes/${quoteId}/email`, {
      cookie: staff,
      body: { email: "client@example.com", note: "" },
    });
    expect(res.status).toBe(200);
    expect(smtp.received.length).toBe(before + 1);
    // Quoted-printable soft line breaks joined again.
    const raw = smtp.received.at(-1)!.raw.replace(/=\r?\n/g, "");
    for (const part of fallbackParts) expect(raw).toContain(part);
  });

  it("uses the store's own details once they are set", async () => {
    await app.db.updateTable("settings").set({ storePhone: "(207) 555-0199" }).execute();
    try {
      const { quoteId } = await insertSavedQuote(app.db);
      const text = await page(`/print/${quoteId}`);
      expect(text).toContain("(207) 555-0199");
      expect(text).not.toContain(STORE_FALLBACKS.storePhone);
    } finally {
      await app.db.updateTable("settings").set({ storePhone: null }).execute();
    }
  });
});

describe("expired quotes are reactivated before they go out", () => {
  it("refuses e-mail (409, pointing to Reactivate Quote) and sends it after Reactivate", async () => {
    const { quoteId } = await insertSavedQuote(app.db, {
      status: "ACTIVE",
      expiresAt: new Date(Date.now() - 3 * DAY),
    });
    const before = smtp.received.length;
    const body = { email: "client@example.com", note: "" };
    const refused = await call<{ message: string }>(app, "POST", `/api/quotes/${quoteId}/email`, {
      cookie: staff,
      body,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(EXPIRED_EMAIL_MESSAGE);
    expect(refused.body.message).toContain("Reactivate Quote");
    expect(smtp.received.length).toBe(before);
    const outbox = await app.db.selectFrom("emailOutbox").select("id")
      .where("quoteId", "=", quoteId).execute();
    expect(outbox).toEqual([]);

    expect(
      (await call(app, "POST", `/api/quotes/${quoteId}/reactivate`, { cookie: staff }))
        .status,
    ).toBe(200);
    const sent = await call(app, "POST", `/api/quotes/${quoteId}/email`, { cookie: staff, body });
    expect(sent.status).toBe(200);
    expect(smtp.received.length).toBe(before + 1);
  });

  it("refuses the tablet confirmation from staff and from a kiosk, and allows it after Reactivate", async () => {
    const { quoteId } = await insertSavedQuote(app.db, {
      status: "EMAILED",
      expiresAt: new Date(Date.now() - DAY),
    });
    const bundle = await bundleOf(quoteId);
    const asStaff = await call<{ message: string }>(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: staff,
      body: selection(bundle),
    });
    expect(asStaff.status).toBe(409);
    expect(asStaff.body.message).toBe(EXPIRED_CONFIRM_MESSAGE);

    const kiosk = await kioskCookieFor(app.db, {
      kind: "QUOTE",
      quoteId,
      handedOverBy: staffId,
    });
    const asKiosk = await call<{ message: string }>(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: selection(bundle),
    });
    expect(asKiosk.status).toBe(409);
    expect(asKiosk.body.message).toContain("Reactivate Quote");
    const row = await app.db.selectFrom("quotes").select(["status", "version", "acceptedAt"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "EMAILED", version: bundle.quote.version, acceptedAt: null });

    expect(
      (await call(app, "POST", `/api/quotes/${quoteId}/reactivate`, { cookie: staff }))
        .status,
    ).toBe(200);
    // The refused attempt did not use up the kiosk's one write.
    const confirmed = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: selection(await bundleOf(quoteId)),
    });
    expect(confirmed.status).toBe(200);
    expect((await bundleOf(quoteId)).quote.status).toBe("ACCEPTED");
  });
});

describe("complete measurements have a distance PD", () => {
  it("refuses complete without PD distance (400 naming it); the quote stays Pending Measurements", async () => {
    const created = await call<CreatedClient>(app, "POST", "/api/clients", {
      cookie: staff,
      body: { firstName: "Pia", lastName: "Nopd" },
    });
    const clientId = created.body.client.id;
    const quoteId = created.body.quote.id;
    const draft = await bundleOf(quoteId);
    const saved = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: staff,
      body: {
        version: draft.quote.version,
        opticianName: "Maria",
        options: [{
          id: draft.options[0].id,
          items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-1", unitPrice: "100", qty: 1 }],
        }],
      },
    });
    expect(saved.status).toBe(200);
    expect((await bundleOf(quoteId)).quote.status).toBe("PENDING_MEASUREMENTS");

    const url = `/api/clients/${clientId}/measurements`;
    for (const pdBinocular of ["", "0"]) {
      const res = await call<{ message: string; errors: Record<string, string> }>(
        app,
        "PUT",
        url,
        { cookie: staff, body: { pdBinocular, pdNear: "", measurementsComplete: true } },
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(PD_REQUIRED_FOR_COMPLETE);
      expect(res.body.errors).toEqual({ pdBinocular: PD_REQUIRED_FOR_COMPLETE });
    }
    const stored = await app.db.selectFrom("clientMeasurements")
      .select(["measurementsComplete"]).where("clientId", "=", clientId)
      .executeTakeFirstOrThrow();
    expect(stored.measurementsComplete).toBe(false);
    expect((await bundleOf(quoteId)).quote.status).toBe("PENDING_MEASUREMENTS");

    const ok = await call(app, "PUT", url, {
      cookie: staff,
      body: { pdBinocular: "62", pdNear: "", measurementsComplete: true },
    });
    expect(ok.status).toBe(200);
    expect((await bundleOf(quoteId)).quote.status).toBe("ACTIVE");
  });
});

describe("builder amounts the API refuses", () => {
  async function draftQuote() {
    const created = await call<CreatedClient>(app, "POST", "/api/clients", {
      cookie: staff,
      body: { firstName: "Dee", lastName: "Count" },
    });
    return await bundleOf(created.body.quote.id);
  }
  const save = (bundle: QuoteBundle, option: Record<string, unknown>) =>
    call<{ message: string; errors?: Record<string, string> }>(
      app,
      "PUT",
      `/api/quotes/${bundle.quote.id}`,
      {
        cookie: staff,
        body: {
          version: bundle.quote.version,
          opticianName: "Maria",
          options: [{ id: bundle.options[0].id, label: "Everyday", ...option }],
        },
      },
    );
  const frame = (qty: unknown = 1) => ({
    kind: "FRAME",
    name: "Ray-Ban",
    sku: "RB-1",
    unitPrice: "100.00",
    qty,
  });

  it("refuses a discount that takes the option's total below zero, and allows one to zero", async () => {
    const bundle = await draftQuote();
    const refused = await save(bundle, {
      items: [frame()],
      shipping: "5",
      adjustmentAmount: "99841.00",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Everyday: the discount is more than .*\$105\.00/);
    expect(refused.body.errors).toHaveProperty(["options.0.adjustmentAmount"]);
    const row = await app.db.selectFrom("quotes").select("version")
      .where("id", "=", bundle.quote.id).executeTakeFirstOrThrow();
    expect(row.version).toBe(bundle.quote.version);

    const ok = await save(bundle, { items: [frame()], shipping: "5", adjustmentAmount: "-105" });
    expect(ok.status).toBe(200);
    const saved = await bundleOf(bundle.quote.id);
    expect(saved.options[0].adjustmentAmount).toBe("-105.00");
  });

  it("says what is wrong with a fraction or too many instead of changing the quantity", async () => {
    const bundle = await draftQuote();
    for (
      const [qty, message] of [
        [2.5, "Quantity must be a whole number"],
        ["2.5", "Quantity must be a whole number"],
        [MAX_QTY + 1, `Quantity can be at most ${MAX_QTY}`],
        [0, "Quantity must be at least 1"],
      ] as const
    ) {
      const res = await save(bundle, { items: [frame(qty)] });
      expect(res.status).toBe(400);
      expect(res.body.errors?.["options.0.items.0.qty"]).toBe(message);
    }
    // Text that is no number at all is the spec's "becomes 1".
    const ok = await save(bundle, { items: [frame("two")] });
    expect(ok.status).toBe(200);
    expect((await bundleOf(bundle.quote.id)).options[0].items[0].qty).toBe(1);
  });
});

describe("intake wire format", () => {
  it("takes a null date of birth and keeps heardHowId 'other' for Other", async () => {
    const created = await call<CreatedClient>(app, "POST", "/api/clients", {
      body: { firstName: "Ola", lastName: "Other", dob: null, heardHowId: "other" },
    });
    expect(created.status).toBe(201);
    const client = await call<Record<string, unknown>>(
      app,
      "GET",
      `/api/clients/${created.body.client.id}`,
      { cookie: staff },
    );
    expect(client.body).toMatchObject({ dob: null, heardHowId: "other", heardHow: "Other" });

    const withText = await call<CreatedClient>(app, "POST", "/api/clients", {
      body: {
        firstName: "Tex",
        lastName: "Other",
        dob: null,
        heardHowId: "other",
        heardHowText: "Radio ad",
      },
    });
    const read = await call<Record<string, unknown>>(
      app,
      "GET",
      `/api/clients/${withText.body.client.id}`,
      { cookie: staff },
    );
    expect(read.body).toMatchObject({
      heardHowId: "other",
      heardHowText: "Radio ad",
      heardHow: "Other: Radio ad",
    });
  });
});
