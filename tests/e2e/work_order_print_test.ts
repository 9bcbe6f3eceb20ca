// The lab work order on paper, as Chromium's own print lays it out: exactly
// one page per job on Letter and on A4, whatever the data (the longest names,
// notes and item lists), with the job number, the prescription and the PD.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser } from "playwright-core";
import { PDFDocument } from "pdf-lib";
import { pdfPageTexts } from "../../src/pdf/pdf_text.ts";
import { sql } from "kysely";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { openSignedIn } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { fill, insertSavedQuote } from "../helpers/quote_fixture.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { printed } from "../helpers/printed.ts";

let app: TestApp;
let browser: Browser;
let owner: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
}, { env: { PDF_TIMEOUT_MS: "180000" } });

const LONG = (what: string, n: number) => fill(`${what} `, n).slice(0, n);

/** An order of two jobs carrying the most text each field may hold. */
async function maximalOrder(): Promise<OrderBundle> {
  const lab = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
    cookie: owner,
    body: {
      name: LONG("Wide Lab Name", 120),
      phone: "555-0100-2200-3300-4400-5500-6600-7700",
      accountNumber: LONG("ACC", 60),
      turnaroundDays: 5,
    },
  });
  expect(lab.status).toBe(201);
  const q = await insertSavedQuote(app.db, {
    status: "FINALIZED",
    firstName: LONG("Maximiliana", 100),
  });
  await app.db.updateTable("clients").set({ lastName: LONG("Longlastname", 100) })
    .where("id", "=", q.clientId).execute();
  for (const optionId of q.optionIds) {
    await app.db.updateTable("quoteOptions")
      .set({ isChosen: true, notes: LONG("Lab: edge the lenses thin; check the wrap.", 5000) })
      .where("id", "=", optionId).execute();
    for (const [i, kind] of ["PACKAGE", "LENS", "MATERIAL", "AR", "ADDON", "ADDON"].entries()) {
      await app.db.insertInto("optionItems").values({
        optionId,
        position: i + 1,
        kind: kind as "PACKAGE",
        name: LONG(`${kind} option name`, 200),
        unitPrice: "10.00",
        qty: 1,
      }).execute();
    }
    await app.db.updateTable("optionItems").set({ notes: LONG("Colour tortoise", 500) })
      .where("optionId", "=", optionId).where("kind", "=", "FRAME").execute();
    await app.db.insertInto("optionFrameMeasurements")
      .values({ optionId, segOc: LONG("22/24", 200) }).execute();
  }
  const extras: Record<string, string> = {};
  for (const key of ["Colour", "Eye size", "Bridge", "Temple", "PD right", "PD left", "DBL"]) {
    extras[key] = LONG(`${key} value`, 200);
  }
  for (let i = 0; i < 20; i++) extras[`Extra ${i}`] = LONG("value", 200);
  await app.db.insertInto("clientMeasurements").values({
    clientId: q.clientId,
    pdBinocular: "63.5",
    pdNear: "60",
    measurementsComplete: true,
    extras: sql`${JSON.stringify(extras)}::text::jsonb`,
  }).execute();
  expect(
    (await call(app, "POST", `/api/clients/${q.clientId}/prescriptions`, {
      cookie: owner,
      body: {
        dateWritten: "2026-01-15",
        prescriber: LONG("Dr. Prescriber", 120),
        notes: LONG("note", 2000),
        rightEye: {
          sphere: "-2.25",
          cylinder: "-0.50",
          axis: 90,
          add: "2.00",
          prism: { amount: "1.5", base: "in" },
        },
        leftEye: { sphere: "+1.75", cylinder: "-1.25", axis: 180, add: "2.00" },
      },
    })).status,
  ).toBe(201);
  const made = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
    cookie: owner,
    body: { labId: lab.body.id },
  });
  expect(made.status).toBe(201);
  return made.body;
}

const PAPER = { letter: "612x792", a4: "595x842" };

describe("the lab work order on paper", () => {
  it("is exactly one page per job on Letter and A4, with the Rx, PD and job number", async () => {
    const order = await maximalOrder();
    const numbers = order.jobs.map((j) => j.jobNumber);
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    page.context().setDefaultTimeout(60_000);
    try {
      for (const paper of ["letter", "a4"] as const) {
        await page.goto(`/orders/${order.order.id}/work-order?paper=${paper}`);
        await page.waitForSelector("html[data-hydrated=true]");
        if (paper === "letter") {
          expect(await seriousA11yViolations(page)).toEqual([]);
        }
        const { sizes, pages } = await printed(page, `work-order-${paper}`);
        expect(sizes).toEqual([PAPER[paper], PAPER[paper]]);
        pages.forEach((text, i) => {
          expect(text).toContain(numbers[i]);
          expect(text).toContain("LAB WORK ORDER");
          expect(text).toContain("-2.25");
          expect(text).toContain("+1.75");
          expect(text).toContain("1.50 BI");
          expect(text).toContain("63.5");
          // The job notes come last and are printed to their cut end.
          expect(text.trimEnd()).toMatch(/Lab: edge the lenses thin.*\(continued in the system\)$/);
        });
        // Nothing reaches the sheet's hidden overflow: the cut texts fit.
        await page.emulateMedia({ media: "print" });
        // (Each sheet's last section ends inside it: the hidden overflow is never used.)
        const spill = await page.$$eval(
          ".print-sheet-work-order",
          (sheets) =>
            sheets.map((s) =>
              (s.lastElementChild as HTMLElement).getBoundingClientRect().bottom -
              s.getBoundingClientRect().bottom
            ),
        );
        expect(spill.every((px) => px <= 0)).toBe(true);
        await page.emulateMedia({ media: null });
      }
      // One job alone.
      await page.goto(`/orders/${order.order.id}/work-order?job=${order.jobs[1].id}`);
      const { sizes, pages } = await printed(page, "work-order-one");
      expect(sizes).toEqual([PAPER.letter]);
      expect(pages[0]).toContain(numbers[1]);
      // The receipt: one page whatever the number of payments.
      for (let i = 0; i < 30; i++) {
        await app.db.insertInto("payments").values({
          orderId: order.order.id,
          amount: "1.00",
          method: "CARD",
          paidOn: "2026-11-27",
          note: LONG("Paid at the counter", 500),
          actor: "test",
        }).execute();
      }
      await page.goto(`/orders/${order.order.id}/receipt`);
      await page.waitForSelector("html[data-hydrated=true]");
      expect(await seriousA11yViolations(page)).toEqual([]);
      const receipt = await printed(page, "receipt");
      expect(receipt.sizes).toEqual([PAPER.letter]);
      expect(receipt.pages[0]).toContain("Balance due");
      expect(receipt.pages[0]).toContain("earlier payments");
      expect(problems).toEqual([]);
      // The PDF e-mailed to the lab: one page per job on both papers too.
      for (const paper of ["letter", "a4"] as const) {
        const res = await fetch(
          `${app.baseUrl}/api/orders/${order.order.id}/work-order.pdf?paper=${paper}`,
          { headers: { cookie: owner } },
        );
        expect(res.status).toBe(200);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const pdf = await PDFDocument.load(bytes);
        expect(
          pdf.getPages().map((p) => {
            const { width, height } = p.getSize();
            return `${Math.round(width)}x${Math.round(height)}`;
          }),
        ).toEqual([PAPER[paper], PAPER[paper]]);
        const texts = await pdfPageTexts(bytes);
        texts.forEach((text, i) => {
          expect(text).toContain(numbers[i]);
          expect(text).toContain("-2.25");
          expect(text).toContain("63.5");
        });
      }
    } finally {
      await close();
    }
  });
});
