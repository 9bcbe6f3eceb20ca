// The client's e-mail of the signed copy when its render fails after an
// online acceptance (migration 0029): the acceptance
// stands, and the copy is tried again on a backoff until it goes into the
// outbox once, or is given up. The app's PDF pool here times out every render
// (PDF_TIMEOUT_MS=1): that is the failure; a healthy pool made here is the
// retry's.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { call, capturingLogger, type TestApp, waitUntil } from "../helpers/test_app.ts";
import { linkedQuote, storeWithMail } from "../helpers/online_link.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useTestApp } from "../helpers/suite.ts";
import { PdfPool } from "../../src/pdf/pdf_pool.ts";
import { startOutboxWorker } from "../../src/mail/outbox.ts";
import {
  retryOwedSignedCopies,
  SIGNED_COPY_MAX_ATTEMPTS,
  signedCopyBackoffMs,
} from "../../src/quotes/online_signed_copy.ts";

let app: TestApp;
let smtp: SmtpServer;
/** A pool that renders: the retry's. */
let healthy: PdfPool;
const log = capturingLogger();
let address = 40;

useTestApp(async (started) => {
  ({ app, smtp } = started);
  await storeWithMail(app, smtp, "owner@northside.test");
}, { env: { PDF_TIMEOUT_MS: "1" }, logger: log.logger, smtp: true });

before(() => {
  healthy = new PdfPool({ workers: 1, queue: 4, timeoutMs: 180_000, idleMs: 60_000 });
});
after(() => healthy.close());

const PNG_1x1 = "data:image/png;base64," +
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A quote accepted online through the page's own call; its id and the link's address. */
async function accepted(sentTo: string) {
  const { token, ...q } = await linkedQuote(app.db, sentTo, `Client${address}`);
  const res = await call(app, "POST", `/q/${token}/accept`, {
    body: {
      chosenOptionIds: [q.optionIds[0]],
      signerName: "Jane Doe",
      signaturePng: PNG_1x1,
      typedSignature: false,
      termsAccepted: true,
    },
    from: `127.0.0.${address++}`,
  });
  expect(res.status).toBe(200);
  return q.quoteId;
}

const state = (quoteId: string) =>
  app.db.selectFrom("quoteAcceptances")
    .select(["signedCopySettledAt", "signedCopyAttempts", "signedCopyNextAt", "signedPdf"])
    .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
const signedMailsTo = (to: string) =>
  smtp.received.filter((m) => m.to.includes(to) && m.raw.includes("-signed.pdf"));
const retry = (pool: PdfPool, at: Date) =>
  retryOwedSignedCopies(app.db, pool, app.config, log.logger, at);

describe("the signed copy's e-mail after a failed render", () => {
  it("leaves the acceptance standing, then sends the copy once on the retry", async () => {
    const to = "jane.retry@example.com";
    const started = Date.now();
    const quoteId = await accepted(to);
    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).toBe("FINALIZED");
    const failed = await state(quoteId);
    expect(failed).toMatchObject({
      signedCopySettledAt: null,
      signedCopyAttempts: 1,
      signedPdf: null,
    });
    // Its first backoff: a minute from the failed try.
    const wait = failed.signedCopyNextAt!.getTime() - started;
    expect(wait).toBeGreaterThanOrEqual(signedCopyBackoffMs(1));
    expect(wait).toBeLessThan(signedCopyBackoffMs(1) + 60_000);
    expect(
      log.lines.some((l) => l.message === "signed copy failed" && l.fields?.quoteId === quoteId),
    )
      .toBe(true);
    expect(signedMailsTo(to)).toEqual([]);

    // Before the backoff is over, a pass leaves it; after, it renders, queues and sends it.
    expect(await retry(healthy, new Date(failed.signedCopyNextAt!.getTime() - 1000))).toBe(0);
    const due = new Date(failed.signedCopyNextAt!.getTime() + 1000);
    expect(await retry(healthy, due)).toBe(1);
    await waitUntil(() => signedMailsTo(to).length > 0, "the signed copy arrives");
    const done = await state(quoteId);
    expect(done.signedCopySettledAt?.getTime()).toBe(due.getTime());
    expect(done.signedCopyAttempts).toBe(2);
    expect(done.signedPdf?.length).toBeGreaterThan(1000);
    // Once: later passes, even two at once, send nothing more.
    await Promise.all([retry(healthy, new Date(due.getTime() + 3_600_000)), retry(healthy, due)]);
    expect(signedMailsTo(to)).toHaveLength(1);
    const queued = await app.db.selectFrom("emailOutbox").select("attachmentName")
      .where("quoteId", "=", quoteId).where("attachmentName", "like", "%-signed.pdf").execute();
    expect(queued).toHaveLength(1);
  });

  it("is retried by the outbox worker's pass, as main.ts runs it, and sent in that pass", async () => {
    const to = "worker.pass@example.com";
    const quoteId = await accepted(to);
    const due = new Date((await state(quoteId)).signedCopyNextAt!.getTime() + 1000);
    let failures = 0;
    const worker = startOutboxWorker(app.db, app.config.secretKey, log.logger, {
      intervalMs: 50,
      // Its clock moved past the backoff; one failing pass first must not stop the next.
      beforePass: () =>
        failures++ === 0 ? Promise.reject(new Error("database away")) : retry(healthy, due),
    });
    try {
      await waitUntil(() => signedMailsTo(to).length > 0, "the worker sends the signed copy");
    } finally {
      await worker.stop();
    }
    expect(log.lines.some((l) => l.message === "outbox pass: queueing failed")).toBe(true);
    expect((await state(quoteId)).signedCopySettledAt?.getTime()).toBe(due.getTime());
    expect(signedMailsTo(to)).toHaveLength(1);
  });

  it("backs off 1, 2, 4 … minutes up to an hour, and gives up after its last try", async () => {
    expect([1, 2, 3, 6, 7, 9].map((n) => signedCopyBackoffMs(n) / 60_000)).toEqual([
      1,
      2,
      4,
      32,
      60,
      60,
    ]);
    const to = "gives.up@example.com";
    const quoteId = await accepted(to);
    // Every retry fails: a pool that has closed (a server stopping) refuses at once.
    const closed = new PdfPool({ workers: 1, queue: 1, timeoutMs: 1000, idleMs: 1000 });
    await closed.close();
    let at = (await state(quoteId)).signedCopyNextAt!;
    for (let attempt = 2; attempt <= SIGNED_COPY_MAX_ATTEMPTS; attempt++) {
      at = new Date(at.getTime() + 1000);
      expect(await retry(closed, at)).toBe(1);
      const s = await state(quoteId);
      expect(s.signedCopyAttempts).toBe(attempt);
      if (attempt < SIGNED_COPY_MAX_ATTEMPTS) {
        expect(s.signedCopyNextAt!.getTime() - at.getTime()).toBe(signedCopyBackoffMs(attempt));
        at = s.signedCopyNextAt!;
      } else {
        expect(s.signedCopyNextAt).toBeNull();
      }
    }
    expect(
      log.lines.some((l) => l.message === "signed copy given up" && l.fields?.quoteId === quoteId),
    )
      .toBe(true);
    // Given up: no pass tries it again, not even a healthy one; staff's download still makes it.
    expect(await retry(healthy, new Date(at.getTime() + 86_400_000))).toBe(0);
    expect(signedMailsTo(to)).toEqual([]);
  });

  it("waits for mail settings without counting tries, and stops owing after a week", async () => {
    const to = "no.mail@example.com";
    const settings = await app.db.selectFrom("settings").select(["smtpHost"])
      .executeTakeFirstOrThrow();
    await app.db.updateTable("settings").set({ smtpHost: null }).execute();
    let quoteId: string;
    try {
      quoteId = await accepted(to);
      expect(await state(quoteId)).toMatchObject({ signedCopyAttempts: 0, signedCopyNextAt: null });
      expect(await retry(healthy, new Date())).toBe(0);
    } finally {
      await app.db.updateTable("settings").set({ smtpHost: settings.smtpHost }).execute();
    }
    // A week on, it is no longer owed: the pass leaves it.
    expect(await retry(healthy, new Date(Date.now() + 8 * 86_400_000))).toBe(0);
    // Mail set up the same day: the next pass sends it.
    expect(await retry(healthy, new Date())).toBeGreaterThanOrEqual(1);
    await waitUntil(() => signedMailsTo(to).length > 0, "the signed copy arrives");
    expect((await state(quoteId)).signedCopySettledAt).not.toBeNull();
  });
});
