// Orders over HTTP: an order from a finalized quote (frozen copy, J-numbers, promised
// date in business days), the job steps and their refusals, payments and refunds, the
// balance override, the ready e-mail, labs, kiosks, store hours and closed dates, and the
// dashboard's counts, reports and job list over the orders made before them.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, kioskCookieFor } from "../helpers/test_app.ts";
import { sql } from "kysely";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { PRESCRIPTION_BODY } from "../helpers/route_table.ts";
import { deliverDue } from "../../src/mail/outbox.ts";
import { addDays } from "../../src/orders/rules.ts";
import { describeEntry } from "../../src/audit/describe.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import type { OrderReports } from "../../src/orders/order_reports.ts";
import { admin, app, finalizedQuote, lab, order, owner } from "./orders_fixture.ts";
import { putSettings, setNow, smtp, staff, step, useOrdersApp } from "./orders_fixture.ts";

useOrdersApp();

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
    setNow(new Date("2026-11-30T16:00:00Z")); // Monday
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
    setNow(new Date("2026-11-27T16:00:00Z"));
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
      setNow(new Date("2026-11-27T16:00:00Z"));
      const q = await finalizedQuote({
        options: [{ label: "One", sku: "S-9", price: "50.00" }],
        firstName: "Holly",
      });
      let o = (await order(q.quoteId)).body;
      expect(o.jobs[0].promisedDate).toBe("2026-12-04");
      // Ready on Friday at 17:55: the e-mail is not sent on the closed days but Wednesday 09:00.
      for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED"]) o = (await step(o, 0, to)).body;
      setNow(new Date("2026-11-27T23:55:00Z"));
      o = (await step(o, 0, "READY")).body;
      const held = await app.db.selectFrom("emailOutbox").select("nextAttemptAt")
        .where("jobId", "=", o.jobs[0].id).executeTakeFirstOrThrow();
      expect(held.nextAttemptAt.toISOString()).toBe("2026-12-02T15:00:00.000Z");
    } finally {
      setNow(new Date("2026-11-27T16:00:00Z"));
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
    setNow(new Date("2026-12-17T16:00:00Z"));
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
    setNow(new Date("2026-11-27T16:00:00Z"));
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
    setNow(new Date("2026-12-10T16:00:00Z"));
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
    setNow(new Date("2026-11-27T16:00:00Z"));
  });
});
