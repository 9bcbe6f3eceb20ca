// Orders over HTTP against a real database: an order from a finalized quote
// (frozen copy, J-numbers, promised date in business days), the job steps and
// their refusals, payments and refunds, the balance override, labs, kiosk.
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  waitUntil,
} from "../helpers/test_app.ts";
import { PDFDocument } from "pdf-lib";
import { sql } from "kysely";
import { pdfPageTexts } from "../../src/pdf/pdf_text.ts";
import { deadPort, mailSettingsFor } from "../helpers/smtp.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { PRESCRIPTION_BODY } from "../helpers/route_table.ts";
import { deliverDue } from "../../src/mail/outbox.ts";
import { addDays } from "../../src/orders/rules.ts";
import { describeEntry } from "../../src/audit/describe.ts";
import type { LabView, OrderBundle } from "../../src/orders/views.ts";
import type { OrderReports } from "../../src/orders/order_reports.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
let smtp: SmtpServer;
let owner: string;
let admin: string;
let staff: string;
let lab: LabView;
// The app's clock: Friday 2026-11-27 10:00 in Chicago; tests move it.
let now = new Date("2026-11-27T16:00:00Z");

useTestApp(async (started) => {
  ({ app, smtp } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  admin = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "ADMIN" })).id);
  staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
  expect(
    (await call(app, "PUT", "/api/admin/settings", {
      cookie: owner,
      body: mailSettingsFor(smtp, { fromEmail: "store@store.test" }),
    })).status,
  ).toBe(200);
  // Open Monday to Friday, 09:00–18:00 in Chicago.
  await app.db.updateTable("settings").set({
    openingDays: "1,2,3,4,5",
    timeZone: "America/Chicago",
  }).execute();
  const res = await call<LabView>(app, "POST", "/api/admin/labs", {
    cookie: admin,
    body: { name: "Essilor Dallas", email: "orders@lab.test", turnaroundDays: 3 },
  });
  expect(res.status).toBe(201);
  lab = res.body;
}, { env: { PDF_TIMEOUT_MS: "180000" }, clock: () => now, smtp: true });

async function finalizedQuote(init: Parameters<typeof insertSavedQuote>[1] = {}) {
  const q = await insertSavedQuote(app.db, { status: "FINALIZED", ...init });
  await app.db.updateTable("quoteOptions").set({ isChosen: true }).where("quoteId", "=", q.quoteId)
    .execute();
  return q;
}

/** The owner's save of some settings, as the Settings screen sends it. */
const putSettings = (body: Record<string, unknown>) =>
  call<Record<string, unknown> & { errors?: Record<string, string> }>(
    app,
    "PUT",
    "/api/admin/settings",
    { cookie: owner, body },
  );

async function order(quoteId: string, body: Record<string, unknown> = {}) {
  return await call<OrderBundle>(app, "POST", `/api/quotes/${quoteId}/order`, {
    cookie: staff,
    body: { labId: lab.id, ...body },
  });
}

async function step(
  o: OrderBundle,
  index: number,
  to: string,
  extra: Record<string, unknown> = {},
  cookie = staff,
) {
  const job = o.jobs[index];
  return await call<OrderBundle & { message?: string }>(app, "POST", `/api/jobs/${job.id}/step`, {
    cookie,
    body: { to, version: job.version, ...extra },
  });
}

describe("orders", () => {
  it("makes one job per chosen option with a frozen copy and a business-day promise", async () => {
    const q = await finalizedQuote();
    const rx = await call<{ id: string }>(app, "POST", `/api/clients/${q.clientId}/prescriptions`, {
      cookie: staff,
      body: PRESCRIPTION_BODY,
    });
    expect(rx.status).toBe(201);
    await app.db.insertInto("clientMeasurements").values({
      clientId: q.clientId,
      pdBinocular: "63",
      pdNear: "60",
      measurementsComplete: true,
    }).execute();
    const res = await order(q.quoteId);
    expect(res.status).toBe(201);
    const o = res.body;
    expect(o.jobs.map((j) => j.jobNumber)).toEqual([
      expect.stringMatching(/^J-\d{6}$/),
      expect.stringMatching(/^J-\d{6}$/),
    ]);
    const [a, b] = o.jobs.map((j) => Number(j.jobNumber.slice(2)));
    expect(b).toBe(a + 1);
    // Friday + 3 business days (Mon–Fri) = Wednesday.
    expect(o.jobs[0].promisedDate).toBe("2026-12-02");
    expect(o.jobs[0].items[0]).toMatchObject({ sku: "RB5154-2000", unitPrice: "189.00" });
    expect(o.jobs[0].measurements.pdDistance).toBe("63");
    expect(o.jobs[0].prescription?.rightEye.sphere).toBe("-2.25");
    expect(o.money).toEqual({
      totalCents: 33_900,
      paidCents: 0,
      balanceCents: 33_900,
      creditCents: 0,
    });
    // Frozen: a later change to the quote's items changes nothing on the job.
    await app.db.updateTable("optionItems").set({ unitPrice: "1.00" }).execute();
    const again = await call<OrderBundle>(app, "GET", `/api/orders/${o.order.id}`, {
      cookie: staff,
    });
    expect(again.body.jobs[0].total).toBe("189.00");
    // One order per quote.
    expect((await order(q.quoteId)).status).toBe(409);
    const audit = await app.db.selectFrom("auditLog").select("action")
      .where("entityId", "=", o.order.id).execute();
    expect(audit.map((r) => r.action)).toContain("order.create");
  });

  it("refuses a quote that is not finalized, a bad lab or prescription, with the field", async () => {
    const active = await insertSavedQuote(app.db, { status: "ACTIVE" });
    const notFinal = await order(active.quoteId);
    expect(notFinal.status).toBe(409);
    const q = await finalizedQuote();
    const badLab = await order(q.quoteId, { labId: crypto.randomUUID() });
    expect(badLab.status).toBe(400);
    expect(JSON.stringify(badLab.body)).toContain("labId");
    const badRx = await order(q.quoteId, { prescriptionId: crypto.randomUUID() });
    expect(badRx.status).toBe(400);
    expect(JSON.stringify(badRx.body)).toContain("prescriptionId");
    expect(
      await app.db.selectFrom("orders").select("id").where("quoteId", "=", q.quoteId)
        .execute(),
    ).toEqual([]);
  });

  it("walks the steps, refuses illegal ones with 409, counts remakes, keeps history", async () => {
    const q = await finalizedQuote({ options: [{ label: "One", sku: "S-1", price: "100.00" }] });
    let o = (await order(q.quoteId)).body;
    const skip = await step(o, 0, "READY");
    expect(skip.status).toBe(409);
    expect(skip.body.message).toContain("cannot move to ready for pickup");
    o = (await step(o, 0, "SENT_TO_LAB")).body;
    // A stale page: the version it loaded is gone.
    const stale = await call(app, "POST", `/api/jobs/${o.jobs[0].id}/step`, {
      cookie: staff,
      body: { to: "RECEIVED", version: o.jobs[0].version - 1 },
    });
    expect(stale.status).toBe(409);
    o = (await step(o, 0, "RECEIVED")).body;
    const noReason = await step(o, 0, "REMAKE");
    expect(noReason.status).toBe(400);
    o = (await step(o, 0, "REMAKE", { reason: "Axis off by 10°" })).body;
    expect(o.jobs[0].remakeCount).toBe(1);
    now = new Date("2026-11-30T16:00:00Z"); // Monday
    o = (await step(o, 0, "SENT_TO_LAB")).body;
    // Promised again from the day it went back: Monday + 3 = Thursday.
    expect(o.jobs[0].promisedDate).toBe("2026-12-03");
    for (const to of ["RECEIVED", "CHECKED"]) o = (await step(o, 0, to)).body;
    expect(o.jobs[0].events.map((e) => e.toStatus)).toEqual([
      "ORDERED",
      "SENT_TO_LAB",
      "RECEIVED",
      "REMAKE",
      "SENT_TO_LAB",
      "RECEIVED",
      "CHECKED",
    ]);
    expect(o.jobs[0].events[3].reason).toBe("Axis off by 10°");
    const cancel = await step(o, 0, "CANCELLED", { reason: "Client moved away" });
    expect(cancel.status).toBe(200);
    expect(cancel.body.money.totalCents).toBe(0);
    expect((await step(cancel.body, 0, "ORDERED", {}, owner)).status).toBe(409);
    now = new Date("2026-11-27T16:00:00Z");
  });

  it("takes payments, refunds by admin with a reason, overrides a pickup with balance", async () => {
    const q = await finalizedQuote({ options: [{ label: "One", sku: "S-2", price: "100.00" }] });
    let o = (await order(q.quoteId)).body;
    const pay = (body: Record<string, unknown>, cookie = staff) =>
      call<OrderBundle & { message?: string }>(app, "POST", `/api/orders/${o.order.id}/payments`, {
        cookie,
        body,
      });
    expect((await pay({ amount: "30,00", method: "CASH" })).status).toBe(201);
    const over = await pay({ amount: "70.01", method: "CARD" });
    expect(over.status).toBe(400);
    expect(over.body.message).toContain("more than the balance due ($70.00)");
    expect((await pay({ amount: "1,234", method: "CARD" })).status).toBe(400);
    expect((await pay({ amount: "5", method: "BITCOIN" })).status).toBe(400);
    expect((await pay({ amount: "-10", method: "CASH", reason: "goodwill" })).status).toBe(403);
    expect((await pay({ amount: "-10", method: "CASH" }, admin)).status).toBe(400);
    const refund = await pay({ amount: "-10", method: "CASH", reason: "goodwill" }, admin);
    expect(refund.status).toBe(201);
    expect(refund.body.money).toMatchObject({ paidCents: 2_000, balanceCents: 8_000 });
    for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED", "READY"]) {
      o = (await step(o, 0, to)).body;
    }
    const owed = await step(o, 0, "PICKED_UP");
    expect(owed.status).toBe(409);
    expect(owed.body.message).toContain("balance due of $80.00");
    expect((await step(o, 0, "PICKED_UP", { overrideReason: "Pays Friday" })).status).toBe(403);
    const handed = await step(o, 0, "PICKED_UP", { overrideReason: "Pays Friday" }, admin);
    expect(handed.status).toBe(200);
    o = handed.body;
    expect(o.jobs[0].status).toBe("PICKED_UP");
    expect(o.jobs[0].events.at(-1)?.reason).toBe("Balance due override: Pays Friday");
    // Final, but an owner reopens with a reason.
    expect((await step(o, 0, "READY", { reason: "wrong pair" }, admin)).status).toBe(409);
    expect((await step(o, 0, "READY", { reason: "wrong pair" }, owner)).status).toBe(200);
  });

  it("holds the ready e-mail for the undo window; a step back sends nothing", async () => {
    const q = await finalizedQuote({
      options: [{ label: "One", sku: "S-3", price: "50.00" }],
      firstName: "Nora",
    });
    let o = (await order(q.quoteId)).body;
    for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED", "READY"]) {
      o = (await step(o, 0, to)).body;
    }
    // Undone within the window: the held message is gone.
    o = (await step(o, 0, "CHECKED")).body;
    const held = () =>
      app.db.selectFrom("emailOutbox").select(["status", "nextAttemptAt", "textBody"])
        .where("jobId", "=", o.jobs[0].id).execute();
    expect(await held()).toEqual([]);
    o = (await step(o, 0, "READY")).body;
    const [msg] = await held();
    expect(msg.nextAttemptAt.toISOString()).toBe("2026-11-27T16:10:00.000Z");
    expect(msg.textBody).toContain(`Hello Nora`);
    expect(msg.textBody).toContain(o.jobs[0].jobNumber);
    expect(msg.textBody).toContain("Mon–Fri 09:00–18:00");
    const key = app.config.secretKey;
    await deliverDue(app.db, key, new Date("2026-11-27T16:09:59Z"));
    expect(smtp.received.filter((m) => m.raw.includes(o.jobs[0].jobNumber))).toEqual([]);
    await deliverDue(app.db, key, new Date("2026-11-27T16:10:00Z"));
    await deliverDue(app.db, key, new Date("2026-11-27T16:20:00Z"));
    expect(smtp.received.filter((m) => m.raw.includes(o.jobs[0].jobNumber)).length).toBe(1);
    const after = await call<OrderBundle>(app, "GET", `/api/orders/${o.order.id}`, {
      cookie: staff,
    });
    expect(after.body.jobs[0].clientNotifiedAt).toBe("2026-11-27T16:10:00.000Z");
  });

  it("renders the work order PDF one page per job and e-mails it to the lab", async () => {
    const q = await finalizedQuote();
    await call(app, "POST", `/api/clients/${q.clientId}/prescriptions`, {
      cookie: staff,
      body: PRESCRIPTION_BODY,
    });
    const o = (await order(q.quoteId)).body;
    for (const [paper, size] of [["letter", "612x792"], ["a4", "595x842"]]) {
      const res = await fetch(
        `${app.baseUrl}/api/orders/${o.order.id}/work-order.pdf?paper=${paper}`,
        {
          headers: { cookie: staff },
        },
      );
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const pdf = await PDFDocument.load(bytes);
      expect(
        pdf.getPages().map((p) => {
          const { width, height } = p.getSize();
          return `${Math.round(width)}x${Math.round(height)}`;
        }),
      ).toEqual([size, size]);
      const pages = await pdfPageTexts(bytes);
      expect(pages.length).toBe(2);
      pages.forEach((text, i) => {
        expect(text).toContain(o.jobs[i].jobNumber);
        expect(text).toContain("-2.25");
      });
    }
    const before = smtp.received.length;
    const mailed = await call<{ message: string }>(
      app,
      "POST",
      `/api/orders/${o.order.id}/work-order/email`,
      { cookie: staff, body: { paper: "a4" } },
    );
    expect(mailed.status).toBe(200);
    expect(mailed.body.message).toContain("orders@lab.test");
    await waitUntil(() => smtp.received.length > before, "the work order e-mail");
    const mail = smtp.received.at(-1)!;
    expect(mail.raw).toContain("Work-order-");
    expect(mail.raw).toContain("application/pdf");
    const noMail = await call<LabView>(app, "POST", "/api/admin/labs", {
      cookie: admin,
      body: { name: "Paper Lab", turnaroundDays: 2 },
    });
    const q2 = await finalizedQuote();
    const o2 = (await order(q2.quoteId, { labId: noMail.body.id })).body;
    const refused = await call<{ message: string }>(
      app,
      "POST",
      `/api/orders/${o2.order.id}/work-order/email`,
      { cookie: staff, body: {} },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("Paper Lab has no e-mail address");
  });

  it("prints and e-mails only the jobs the lab must make; the lab gets the jobs staff tick", async () => {
    const q = await finalizedQuote();
    const first = (await order(q.quoteId)).body;
    const [kept, cancelled] = first.jobs;
    const o = (await step(first, 1, "CANCELLED", { reason: "Client changed her mind" })).body;
    // The PDF leaves the cancelled job out, unless asked for every job: then it is marked.
    const pdfOf = async (query: string) => {
      const res = await fetch(`${app.baseUrl}/api/orders/${o.order.id}/work-order.pdf?${query}`, {
        headers: { cookie: staff },
      });
      expect(res.status).toBe(200);
      return await pdfPageTexts(new Uint8Array(await res.arrayBuffer()));
    };
    const plain = await pdfOf("");
    expect(plain).toHaveLength(1);
    expect(plain[0]).toContain(kept.jobNumber);
    expect(plain.join(" ")).not.toContain(cancelled.jobNumber);
    const all = await pdfOf("all=1");
    expect(all).toHaveLength(2);
    expect(all[1]).toContain(cancelled.jobNumber);
    expect(all[1]).toContain("CANCELLED — do not make");
    expect(all[1]).toContain("Client changed her mind");
    expect(all[0]).not.toContain("do not make");

    const email = (body: Record<string, unknown>) =>
      call<{ status: string; message: string; errors?: Record<string, string> }>(
        app,
        "POST",
        `/api/orders/${o.order.id}/work-order/email`,
        { cookie: staff, body },
      );
    /** The PDF of the latest work order e-mail of a job, as the outbox keeps it. */
    const attachment = async (jobId: string) => {
      const row = await app.db.selectFrom("emailOutbox").select(["attachment", "createdAt"])
        .where("jobId", "=", jobId).where("kind", "=", "WORK_ORDER")
        .orderBy("createdAt", "desc").executeTakeFirstOrThrow();
      return await pdfPageTexts(new Uint8Array(row.attachment!));
    };
    // Without a choice: the jobs not at the lab yet (the cancelled one is not).
    const waiting = await email({});
    expect(waiting.status).toBe(200);
    expect(waiting.body.message).toContain(kept.jobNumber);
    expect(waiting.body.message).not.toContain(cancelled.jobNumber);
    const sent = await attachment(kept.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(kept.jobNumber);
    // Refused: a cancelled job, another order's job, no job, not an id.
    const other = (await order((await finalizedQuote()).quoteId)).body;
    for (
      const [jobIds, words] of [
        [[cancelled.id], `${cancelled.jobNumber} is cancelled`],
        [[kept.id, other.jobs[0].id], `${other.jobs[0].id} is not a job of this order`],
        [[], "Choose at least one job"],
        [["J-000001"], "jobIds must be jobs' ids"],
      ] as const
    ) {
      const refused = await email({ jobIds });
      expect({ jobIds, status: refused.status }).toEqual({ jobIds, status: 400 });
      expect(refused.body.message).toContain(words);
      expect(Object.keys(refused.body.errors ?? {}).some((k) => k.startsWith("jobIds"))).toBe(true);
    }
    // One job of two: the lab's PDF holds that job alone.
    const one = await call<{ message: string }>(
      app,
      "POST",
      `/api/orders/${other.order.id}/work-order/email`,
      { cookie: staff, body: { jobIds: [other.jobs[1].id] } },
    );
    expect(one.status).toBe(200);
    expect(one.body.message).toContain(other.jobs[1].jobNumber);
    expect(one.body.message).not.toContain(other.jobs[0].jobNumber);
    const alone = await attachment(other.jobs[1].id);
    expect(alone).toHaveLength(1);
    expect(alone[0]).toContain(other.jobs[1].jobNumber);
    expect(alone[0]).not.toContain(other.jobs[0].jobNumber);
    // At the lab already: nothing waits, so a choice is needed; a ticked job is sent again.
    const atLab = (await step(o, 0, "SENT_TO_LAB")).body;
    expect(atLab.jobs[0].status).toBe("SENT_TO_LAB");
    const none = await email({});
    expect(none.status).toBe(400);
    expect(none.body.message).toContain("No job of this order waits to be sent to the lab");
    const again = await email({ jobIds: [kept.id], paper: "a4" });
    expect(again.status).toBe(200);
    expect(again.body.message).toContain(kept.jobNumber);
    // A picked-up job is refused like a cancelled one.
    const pickedUp = await app.db.updateTable("jobs").set({ status: "PICKED_UP" })
      .where("id", "=", kept.id).returning("jobNumber").executeTakeFirstOrThrow();
    const refused = await email({ jobIds: [kept.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`${pickedUp.jobNumber} is picked up`);
  });

  it("says the work order is queued, not e-mailed, while the mail server is down", async () => {
    const o = (await order((await finalizedQuote()).quoteId)).body;
    const numbers = o.jobs.map((j) => j.jobNumber).join(", ");
    const mailSettings = (port: number) =>
      putSettings(mailSettingsFor(smtp, { port, fromEmail: "store@store.test" }));
    const email = () =>
      call<{ status: string; message: string }>(
        app,
        "POST",
        `/api/orders/${o.order.id}/work-order/email`,
        { cookie: staff, body: {} },
      );
    expect((await mailSettings(deadPort())).status).toBe(200);
    try {
      const queued = await email();
      expect(queued.status).toBe(202);
      expect(queued.body.status).toBe("queued");
      expect(queued.body.message).not.toMatch(/e-mailed/i);
      const rows = await app.db.selectFrom("emailOutbox")
        .select(["status", "attempts", "nextAttemptAt"])
        .where("jobId", "=", o.jobs[0].id).where("kind", "=", "WORK_ORDER").execute();
      expect(rows).toMatchObject([{ status: "PENDING", attempts: 1 }]);
      const nextTry = new Intl.DateTimeFormat("en-US", { timeStyle: "short" })
        .format(rows[0].nextAttemptAt);
      expect(queued.body.message).toBe(
        `The mail server could not be reached, so the work order ${numbers} to orders@lab.test ` +
          `was not sent yet. It is saved and will be sent automatically (next try at ${nextTry}).`,
      );
    } finally {
      expect((await mailSettings(smtp.port)).status).toBe(200);
    }
    // The server is back: the next one goes at once and says so.
    const before = smtp.received.length;
    const sent = await email();
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      status: "sent",
      message: `Work order e-mailed: ${numbers} to orders@lab.test`,
    });
    expect(smtp.received.length).toBe(before + 1);
  });

  it("keeps labs to admins and owners, and orders from kiosks", async () => {
    expect(
      (await call(app, "POST", "/api/admin/labs", {
        cookie: staff,
        body: { name: "X", turnaroundDays: 1 },
      })).status,
    ).toBe(403);
    const dup = await call(app, "POST", "/api/admin/labs", {
      cookie: admin,
      body: { name: "essilor dallas", turnaroundDays: 2 },
    });
    expect(dup.status).toBe(409);
    const bad = await call(app, "POST", "/api/admin/labs", {
      cookie: admin,
      body: { name: "Zeiss", turnaroundDays: "three" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("turnaroundDays");
    const q = await finalizedQuote();
    const kiosk = await kioskCookieFor(app.db, {
      kind: "QUOTE",
      quoteId: q.quoteId,
      handedOverBy: (await createTestUser(app.db)).id,
    });
    expect((await call(app, "GET", "/api/orders", { cookie: kiosk })).status).toBe(403);
    expect(
      (await call(app, "POST", `/api/quotes/${q.quoteId}/order`, {
        cookie: kiosk,
        body: { labId: lab.id },
      })).status,
    ).toBe(403);
  });

  it("keeps the store hours in Settings, each field checked and audited", async () => {
    const bad = await putSettings({
      timeZone: "Mars/Olympus",
      openingDays: "1,9",
      closingTime: "25:00",
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual([
      "closingTime",
      "openingDays",
      "timeZone",
    ]);
    expect((await putSettings({ openingTime: "18:00", closingTime: "09:00" })).status).toBe(400);
    const ok = await putSettings({ openingDays: [5, 1, 2, 3, 4], readyUndoMinutes: "10" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      openingDays: "1,2,3,4,5",
      timeZone: "America/Chicago",
      readyUndoMinutes: 10,
      readyWaitingDays: 14,
      readyEmailSubject: "Your glasses are ready",
    });
  });

  it("skips the store's closed dates in promised dates and the ready e-mail", async () => {
    const unreal = await putSettings({ closedDates: "2026-12-01, 2026-02-30" });
    expect(unreal.status).toBe(400);
    expect(unreal.body.errors?.closedDates).toBe(
      'Closed dates must be real days written as YYYY-MM-DD ("2026-02-30")',
    );
    const tooMany = await putSettings({
      closedDates: Array.from({ length: 101 }, (_, i) => addDays("2027-01-01", i)),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors?.closedDates).toBe(
      "At most 100 closed dates; remove past ones first",
    );
    expect((await putSettings({ closedDates: 12 })).status).toBe(400);
    const staffPut = await call(app, "PUT", "/api/admin/settings", {
      cookie: staff,
      body: { closedDates: ["2026-12-24"] },
    });
    expect(staffPut.status).toBe(403);

    // Shut Monday 11-30 and Tuesday 12-01 (sent twice, out of order: kept once, sorted).
    const ok = await putSettings({ closedDates: ["2026-12-01", "2026-11-30", "2026-11-30"] });
    expect(ok.status).toBe(200);
    expect(ok.body.closedDates).toBe("2026-11-30,2026-12-01");
    const audit = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "settings.update").orderBy("at", "desc").orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({
      changes: [{ field: "closedDates", from: "", to: "2026-11-30,2026-12-01" }],
    });
    // The history names the field as the screen does.
    expect(
      describeEntry({
        id: "1",
        at: "",
        actor: "owner",
        action: "settings.update",
        kind: "settings",
        entityType: "settings",
        entityId: "1",
        details: audit.details as Record<string, unknown>,
      }).changes,
    ).toEqual([{ label: "Closed dates", from: "(empty)", to: "2026-11-30,2026-12-01" }]);
    try {
      // Friday 10:00, a 3-day lab: not Monday nor Tuesday; Wednesday, Thursday, Friday.
      now = new Date("2026-11-27T16:00:00Z");
      const q = await finalizedQuote({
        options: [{ label: "One", sku: "S-9", price: "50.00" }],
        firstName: "Holly",
      });
      let o = (await order(q.quoteId)).body;
      expect(o.jobs[0].promisedDate).toBe("2026-12-04");
      // Ready on Friday at 17:55: the e-mail is not sent on the closed days but Wednesday 09:00.
      for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED"]) o = (await step(o, 0, to)).body;
      now = new Date("2026-11-27T23:55:00Z");
      o = (await step(o, 0, "READY")).body;
      const held = await app.db.selectFrom("emailOutbox").select("nextAttemptAt")
        .where("jobId", "=", o.jobs[0].id).executeTakeFirstOrThrow();
      expect(held.nextAttemptAt.toISOString()).toBe("2026-12-02T15:00:00.000Z");
    } finally {
      now = new Date("2026-11-27T16:00:00Z");
      expect((await putSettings({ closedDates: "" })).body.closedDates).toBe("");
    }
  });

  it("counts the dashboard's late, waiting and today's pickups as SQL does", async () => {
    // A ready job waiting 20 days, and the store's "today" moved on.
    const q = await finalizedQuote({ options: [{ label: "W", sku: "W-1", price: "10.00" }] });
    let o = (await order(q.quoteId)).body;
    for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED", "READY"]) {
      o = (await step(o, 0, to)).body;
    }
    now = new Date("2026-12-17T16:00:00Z");
    const page = await call(app, "GET", "/dashboard", {
      cookie: staff,
      headers: { accept: "text/html" },
    });
    expect(page.status).toBe(200);
    const shown = (id: string) =>
      Number(
        new RegExp(`data-testid="${id}-count">\\((\\d+)\\)`)
          .exec(page.text)?.[1],
      );
    const count = async (where: string) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from jobs j, settings s
          where s.id = 1 and ${sql.raw(where)}`.execute(app.db)).rows[0].n,
      );
    const today = "(timestamptz '2026-12-17T16:00:00Z' at time zone s.time_zone)::date";
    expect(shown("late-jobs")).toBe(
      await count(
        `j.status in ('ORDERED','SENT_TO_LAB','RECEIVED','CHECKED','REMAKE') and j.promised_date < ${today}`,
      ),
    );
    expect(shown("late-jobs")).toBeGreaterThan(0);
    expect(shown("waiting-jobs")).toBe(
      await count(
        `j.status = 'READY' and j.ready_at <= timestamptz '2026-12-17T16:00:00Z' - make_interval(days => s.ready_waiting_days)`,
      ),
    );
    expect(shown("waiting-jobs")).toBeGreaterThan(0);
    expect(shown("pickups-today")).toBe(
      await count(
        `j.status = 'PICKED_UP' and (j.picked_up_at at time zone s.time_zone)::date = ${today}`,
      ),
    );
    now = new Date("2026-11-27T16:00:00Z");
  });

  it("reports turnaround, remakes, payments and balances as SQL counts them", async () => {
    const res = await call<OrderReports>(
      app,
      "GET",
      "/api/reports/orders?from=2026-11-01&to=2026-12-31",
      { cookie: admin },
    );
    expect(res.status).toBe(200);
    const one = async (q: ReturnType<typeof sql>) =>
      Number(((await q.execute(app.db)).rows[0] as { n: string | number }).n);
    const lab = res.body.remakes.find((r) => r.lab === "Essilor Dallas")!;
    expect(lab.jobs).toBe(
      await one(sql`select count(*) as n from jobs j join labs l on l.id = j.lab_id
        where l.name = 'Essilor Dallas'`),
    );
    expect(lab.remadeJobs).toBe(
      await one(sql`select count(*) as n from jobs j join labs l on l.id = j.lab_id
        where l.name = 'Essilor Dallas' and remake_count > 0`),
    );
    expect(lab.remadeJobs).toBeGreaterThan(0);
    const turnaroundJobs = res.body.turnaround.filter((t) => t.lab === "Essilor Dallas")
      .reduce((n, t) => n + t.jobs, 0);
    expect(turnaroundJobs).toBe(
      await one(sql`select count(*) as n from jobs j join labs l on l.id = j.lab_id
        where l.name = 'Essilor Dallas' and ready_at is not null`),
    );
    const paidCents = res.body.payments.reduce((n, p) => n + Math.round(Number(p.amount) * 100), 0);
    expect(paidCents).toBe(
      await one(sql`select coalesce(sum(amount * 100), 0)::int as n from payments`),
    );
    expect(res.body.balances.length).toBe(
      await one(sql`select count(*) as n from orders o where
        (select coalesce(sum(total), 0) from jobs where order_id = o.id and status <> 'CANCELLED')
        > (select coalesce(sum(amount), 0) from payments where order_id = o.id)`),
    );
    const csv = await call(app, "GET", "/api/reports/orders/remakes.csv?from=2026-11-01", {
      cookie: admin,
    });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("lab,jobs,remade_jobs,remakes,remake_rate_percent");
    expect((await call(app, "GET", "/api/reports/orders", { cookie: staff })).status).toBe(403);
  });

  it("lists jobs by status, lateness and search", async () => {
    const late = await call<{ jobNumber: string; isLate: boolean }[]>(
      app,
      "GET",
      "/api/orders?late=1",
      { cookie: staff },
    );
    expect(late.status).toBe(200);
    expect(late.body).toEqual([]);
    now = new Date("2026-12-10T16:00:00Z");
    const later = await call<{ jobNumber: string; isLate: boolean }[]>(
      app,
      "GET",
      "/api/orders?late=1",
      { cookie: staff },
    );
    const [{ n }] = await app.db.selectFrom("jobs").select((eb) => eb.fn.countAll<string>().as("n"))
      .where("status", "in", ["ORDERED", "SENT_TO_LAB", "RECEIVED", "CHECKED", "REMAKE"])
      .where("promisedDate", "<", "2026-12-10").execute();
    expect(later.body.length).toBe(Number(n));
    expect(later.body.every((r) => r.isLate)).toBe(true);
    const one = later.body[0].jobNumber;
    const found = await call<{ jobNumber: string }[]>(app, "GET", `/api/orders?q=${one}`, {
      cookie: staff,
    });
    expect(found.body.map((r) => r.jobNumber)).toEqual([one]);
    expect((await call(app, "GET", "/api/orders?status=NOPE", { cookie: staff })).status)
      .toBe(400);
    // The staff bar's search finds a job by its number, with or without the dash and zeros.
    const hits = await call<{ type: string; title: string; href: string }[]>(
      app,
      "GET",
      `/api/search?q=${one.toLowerCase().replace("-", "")}`,
      { cookie: staff },
    );
    expect(hits.body[0]).toMatchObject({ type: "job", title: one });
    expect(hits.body[0].href).toMatch(/^\/orders\/[0-9a-f-]{36}$/);
    now = new Date("2026-11-27T16:00:00Z");
  });
});
