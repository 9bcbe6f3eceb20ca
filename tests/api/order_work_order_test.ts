// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// Orders over HTTP: the lab's work order, printed one page per job and e-mailed to the
// lab, only the jobs the lab must make, and queued while the mail server is down.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, waitUntil } from "../helpers/test_app.ts";
import { PDFDocument } from "pdf-lib";
import { pdfPageTexts } from "../../src/pdf/pdf_text.ts";
import { deadPort, mailSettingsFor } from "../helpers/smtp.ts";
import { PRESCRIPTION_BODY } from "../helpers/route_table.ts";
import type { LabView } from "../../src/orders/views.ts";
import { admin, app, finalizedQuote, order, putSettings, smtp } from "./orders_fixture.ts";
import { staff, step, useOrdersApp } from "./orders_fixture.ts";

useOrdersApp();

describe("the lab's work order", () => {
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
});
