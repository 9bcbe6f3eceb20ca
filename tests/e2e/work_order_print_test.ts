// The lab work order on paper, as Chromium's own print lays it out, and as
// the app's PDF: only the jobs the lab must make unless staff ask for every
// one (the others marked not to make), every text whole (read back with
// pdftotext), one page per job where the data allows and more, under the job's
// header again, where it does not; on Letter and on A4.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser } from "playwright-core";
import { sql } from "kysely";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { openSignedIn } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { fill, insertSavedQuote } from "../helpers/quote_fixture.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { pdfPageCount, pdfRawPages, printed, readPdf, squeezed } from "../helpers/printed.ts";

let app: TestApp;
let browser: Browser;
let owner: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
}, { env: { PDF_TIMEOUT_MS: "180000" } });

const LONG = (what: string, n: number) => fill(`${what} `, n).slice(0, n);

/** An order of two jobs carrying the most text each field may hold, notes as numbered words. */
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
  for (const [o, optionId] of q.optionIds.entries()) {
    await app.db.updateTable("quoteOptions")
      .set({ isChosen: true, notes: note(`MAX${o}N`, 2000) })
      .where("id", "=", optionId).execute();
    for (const [i, kind] of ["PACKAGE", "LENS", "MATERIAL", "AR", "ADDON", "ADDON"].entries()) {
      await app.db.insertInto("optionItems").values({
        optionId,
        position: i + 1,
        kind: kind as "PACKAGE",
        name: note(`MAX${o}I${i}X`, 200),
        unitPrice: "10.00",
        qty: 1,
      }).execute();
    }
    await app.db.updateTable("optionItems").set({ notes: note(`MAX${o}FRAME`, 1000) })
      .where("optionId", "=", optionId).where("kind", "=", "FRAME").execute();
    await app.db.insertInto("optionFrameMeasurements")
      .values({ optionId, segOc: LONG("22/24", 50) }).execute();
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
        notes: note("MAXRX", 2000),
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
    body: { labId: lab.body.id, notes: note("MAXORDER", 2000) },
  });
  expect(made.status).toBe(201);
  return made.body;
}

const PAPER = { letter: "612x792", a4: "595x842" };

/** The numbered words of `note(tag, length)`. */
const wordsOf = (tag: string, length: number) => note(tag, length).split(/\s+/).slice(0, -1);

/**
 * The pages of each job, in order: a job's sheet may go on to more pages,
 * each under its header (the job number) again. Every page names one job.
 */
function pagesByJob(pages: string[], numbers: string[]): string[][] {
  const byJob = numbers.map((): string[] => []);
  for (const text of pages) {
    const owners = numbers.map((n, i) => text.includes(squeezed(n)) ? i : -1).filter((i) => i >= 0);
    expect(owners).toHaveLength(1);
    byJob[owners[0]].push(text);
  }
  return byJob;
}

/** Every numbered word of the job's notes, the order's, the Rx's and its items is on its pages. */
function expectWhole(pages: string[], job: number) {
  const text = pages.map(squeezed).join("");
  const words = [
    ...wordsOf(`MAX${job}N`, 2000),
    ...wordsOf("MAXORDER", 2000),
    ...wordsOf("MAXRX", 2000),
    ...wordsOf(`MAX${job}FRAME`, 1000),
    ...[0, 1, 2, 3, 4, 5].flatMap((i) => wordsOf(`MAX${job}I${i}X`, 200)),
  ];
  const missing = words.filter((w) => !text.includes(w));
  expect({ job, missing }).toEqual({ job, missing: [] });
}

describe("the lab work order on paper", () => {
  it("prints the longest data whole on Letter and A4, going on to a page of its own where it must", async () => {
    const order = await maximalOrder();
    const numbers = order.jobs.map((j) => j.jobNumber);
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    page.context().setDefaultTimeout(60_000);
    try {
      for (const paper of ["letter", "a4"] as const) {
        await page.goto(`/orders/${order.order.id}/work-order?paper=${paper}`);
        await page.waitForSelector("html[data-sheets-fitted=true]");
        if (paper === "letter") {
          expect(await seriousA11yViolations(page)).toEqual([]);
        }
        const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
        const { sizes } = await readPdf(bytes, `work-order-${paper}`);
        expect(sizes.every((size) => size === PAPER[paper])).toBe(true);
        const pages = await pdfRawPages(bytes);
        expect(pages).toHaveLength(await pdfPageCount(bytes));
        const byJob = pagesByJob(pages.map(squeezed), numbers);
        byJob.forEach((jobPages, i) => {
          // Too much for one page even in the smallest type: it goes on, never cut.
          expect(jobPages.length).toBeGreaterThan(1);
          const first = jobPages[0];
          expect(first).toContain("LABWORKORDER");
          expect(first).toContain("2.25");
          expect(first).toContain("+1.75");
          expect(first).toContain("1.50BI");
          expect(first).toContain("63.5");
          expectWhole(jobPages, i);
        });
        expect(pages.join("")).not.toContain("continued in the system");
      }
      // One job alone.
      await page.goto(`/orders/${order.order.id}/work-order?job=${order.jobs[1].id}`);
      await page.waitForSelector("html[data-sheets-fitted=true]");
      const { pages } = await printed(page, "work-order-one");
      expect(pages.every((text) => text.includes(numbers[1]))).toBe(true);
      expect(pages.some((text) => text.includes(numbers[0]))).toBe(false);
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
      // The PDF e-mailed to the lab: the same, whole, on both papers.
      for (const paper of ["letter", "a4"] as const) {
        const res = await fetch(
          `${app.baseUrl}/api/orders/${order.order.id}/work-order.pdf?paper=${paper}`,
          { headers: { cookie: owner } },
        );
        expect(res.status).toBe(200);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const { sizes } = await readPdf(bytes, `work-order-pdf-${paper}`);
        expect(sizes.every((size) => size === PAPER[paper])).toBe(true);
        const pages = await pdfRawPages(bytes);
        expect(pages).toHaveLength(await pdfPageCount(bytes));
        pagesByJob(pages.map(squeezed), numbers).forEach((jobPages, i) => {
          expect(jobPages.length).toBeGreaterThan(1);
          expect(jobPages[0]).toContain("2.25");
          expect(jobPages[0]).toContain("63.5");
          expectWhole(jobPages, i);
        });
      }
    } finally {
      await close();
    }
  });
});

/** `length` characters of numbered words with line breaks, each word `tag` and its number. */
function note(tag: string, length: number): string {
  let text = "";
  for (let i = 0; text.length < length; i++) {
    text += `${tag}${String(i).padStart(3, "0")}${i % 40 === 39 ? "\n" : " "}`;
  }
  return text.slice(0, length).trim().padEnd(length, "x");
}

/** The text a step to `to` needs (reason or not), taken through the API. */
async function step(jobId: string, to: string, reason = "") {
  const job = await app.db.selectFrom("jobs").select("version").where("id", "=", jobId)
    .executeTakeFirstOrThrow();
  const res = await call(app, "POST", `/api/jobs/${jobId}/step`, {
    cookie: owner,
    body: { to, version: job.version, reason },
  });
  expect({ to, status: res.status }).toEqual({ to, status: 200 });
}

interface FloorOrder {
  order: OrderBundle;
  /** Per job (A, B active; C cancelled; D picked up): its number (squeezed), notes, add-ons. */
  jobs: Array<{ number: string; notes: string; addOns: string[] }>;
  orderNotes: string;
  rxNotes: string;
}

/**
 * An order of four jobs: A and B for the lab, C cancelled, D picked up;
 * 2,000 characters of notes of every kind (each job's notes for the lab, the
 * order's, the prescription's) and add-on lines of 200 characters.
 */
async function floorOrder(): Promise<FloorOrder> {
  const lab = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
    cookie: owner,
    body: { name: "Floor Round Four Lab", turnaroundDays: 3 },
  });
  expect(lab.status).toBe(201);
  const tags = ["JOBA", "JOBB", "JOBC", "JOBD"];
  const q = await insertSavedQuote(app.db, {
    status: "FINALIZED",
    firstName: "Rosalind",
    options: tags.map((tag, i) => ({
      label: `Pair ${tag}`,
      sku: `SKU-${tag}`,
      price: `${i + 1}00.00`,
    })),
  });
  const jobs: FloorOrder["jobs"] = [];
  for (const [i, optionId] of q.optionIds.entries()) {
    const tag = tags[i];
    const notes = note(`${tag}N`, 2000);
    const addOns = [1, 2, 3].map((n) => note(`${tag}ADD${n}X`, 200));
    await app.db.updateTable("quoteOptions").set({ isChosen: true, notes })
      .where("id", "=", optionId).execute();
    for (const [k, name] of addOns.entries()) {
      await app.db.insertInto("optionItems").values({
        optionId,
        position: k + 1,
        kind: "ADDON",
        name,
        unitPrice: "5.00",
        qty: 1,
      }).execute();
    }
    jobs.push({ number: "", notes, addOns });
  }
  const rxNotes = note("RXNOTE", 2000);
  expect(
    (await call(app, "POST", `/api/clients/${q.clientId}/prescriptions`, {
      cookie: owner,
      body: {
        dateWritten: "2026-01-15",
        prescriber: "Dr. Floor",
        notes: rxNotes,
        rightEye: { sphere: "-2.25", cylinder: "-0.50", axis: 90, add: "2.00" },
        leftEye: { sphere: "+1.75", cylinder: "-1.25", axis: 180, add: "2.00" },
      },
    })).status,
  ).toBe(201);
  const orderNotes = note("ORDERNOTE", 2000);
  const made = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
    cookie: owner,
    body: { labId: lab.body.id, notes: orderNotes },
  });
  expect(made.status).toBe(201);
  const [, , c, d] = made.body.jobs;
  await step(c.id, "CANCELLED", "The client kept her old frame");
  const pay = await call<OrderBundle>(app, "POST", `/api/orders/${made.body.order.id}/payments`, {
    cookie: owner,
    body: { amount: (made.body.money.totalCents - 31500) / 100, method: "CARD" },
  });
  expect(pay.status).toBe(201);
  for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED", "READY", "PICKED_UP"]) {
    await step(d.id, to);
  }
  // Numbers as the squeezed text reads them (no hyphen).
  made.body.jobs.forEach((j, i) => jobs[i].number = squeezed(j.jobNumber));
  return { order: made.body, jobs, orderNotes, rxNotes };
}

/** What a printout holds: its page count (pdfinfo) and its text, squeezed, page by page. */
async function paperOf(bytes: Uint8Array) {
  return {
    pages: await pdfPageCount(bytes),
    texts: (await pdfRawPages(bytes)).map(squeezed),
  };
}

describe("the work order the lab can trust", () => {
  it("prints only the jobs the lab must make, every note whole, on one page each, alike on paper and in the PDF", async () => {
    const floor = await floorOrder();
    const [a, b, c, d] = floor.jobs;
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    page.context().setDefaultTimeout(60_000);
    const browserPrint = async (query: string) => {
      await page.goto(`/orders/${floor.order.order.id}/work-order?${query}`);
      await page.waitForSelector("html[data-sheets-fitted=true]");
      const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      await readPdf(bytes, `work-order-floor4-${query.replace(/\W+/g, "-")}`); // kept to look at
      return bytes;
    };
    const appPdf = async (query: string) => {
      const res = await fetch(
        `${app.baseUrl}/api/orders/${floor.order.order.id}/work-order.pdf?${query}`,
        { headers: { cookie: owner } },
      );
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      await readPdf(bytes, `work-order-floor4-pdf-${query.replace(/\W+/g, "-")}`); // kept to look at
      return bytes;
    };
    /** Every character of the job's notes, the order's and the Rx's, and its add-ons. */
    const whole = (text: string, job: FloorOrder["jobs"][number]) => {
      for (const part of [job.notes, floor.orderNotes, floor.rxNotes, ...job.addOns]) {
        expect({ job: job.number, part: part.slice(0, 12), whole: text.includes(squeezed(part)) })
          .toEqual({ job: job.number, part: part.slice(0, 12), whole: true });
      }
    };
    try {
      for (const paper of ["letter", "a4"] as const) {
        const printouts = {
          browser: await paperOf(await browserPrint(`paper=${paper}`)),
          pdf: await paperOf(await appPdf(`paper=${paper}`)),
        };
        for (const [what, out] of Object.entries(printouts)) {
          // One page per job the lab must make: the cancelled and picked-up ones are absent.
          expect({ what, paper, pages: out.pages }).toEqual({ what, paper, pages: 2 });
          [a, b].forEach((job, i) => {
            expect(out.texts[i]).toContain(job.number);
            whole(out.texts[i], job);
          });
          const all = out.texts.join("");
          for (const gone of [c, d]) {
            expect(all).not.toContain(gone.number);
            expect(all).not.toContain(squeezed(gone.notes.slice(0, 40)));
            expect(all).not.toContain(squeezed(gone.addOns[0].slice(0, 40)));
          }
          expect(all).not.toContain("CANCELLED");
        }
      }
      // Asked for every job: the cancelled and the picked-up one are there, marked not to make.
      const everything = {
        browser: await paperOf(await browserPrint("all=1")),
        pdf: await paperOf(await appPdf("all=1")),
      };
      for (const [what, out] of Object.entries(everything)) {
        expect({ what, pages: out.pages }).toEqual({ what, pages: 4 });
        expect(out.texts[0]).not.toContain("donotmake");
        expect(out.texts[2]).toContain(c.number);
        expect(out.texts[2]).toContain(squeezed("CANCELLED — do not make"));
        expect(out.texts[2]).toContain(squeezed("The client kept her old frame"));
        whole(out.texts[2], c);
        expect(out.texts[3]).toContain(d.number);
        expect(out.texts[3]).toContain(squeezed("PICKED UP — do not make"));
        whole(out.texts[3], d);
      }
      // The two print the same sheets in the same order.
      expect(everything.browser.texts.map((t) => floor.jobs.find((j) => t.includes(j.number))))
        .toEqual(everything.pdf.texts.map((t) => floor.jobs.find((j) => t.includes(j.number))));
      // The order page shows the order's notes; the print page offers the marked jobs.
      await page.goto(`/orders/${floor.order.order.id}`);
      await page.waitForSelector("html[data-hydrated=true]");
      expect(squeezed(await page.getByTestId("order-notes").innerText()))
        .toBe(squeezed(floor.orderNotes));
      await page.goto(`/orders/${floor.order.order.id}/work-order`);
      await page.getByRole("link", { name: "All jobs, 2 marked not to make" }).waitFor();
      const shot = await readPdf(await browserPrint("all=1"), "work-order-floor4-all");
      expect(shot.sizes).toHaveLength(4);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
