// The PDF pool's limits, over HTTP: an app held to one renderer, a queue of
// one and a one-second time limit, far under the seconds the largest quote
// the API accepts takes to lay out. Both callers of the renderer (the PDF
// call and the quote e-mail) must answer 503 with Retry-After, never hang.
// Only renders that cannot finish in time are asked for, so the outcomes do
// not depend on how busy the machine is.
import { after, describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  sessionCookieFor,
  startTestApp,
  type TestApp,
  waitUntil,
} from "../helpers/test_app.ts";
import { startSmtpServer } from "../helpers/smtp.ts";
import { createQuoteThroughApi, maximalClient, maximalOptions } from "../helpers/quote_fixture.ts";
import { useTestApp } from "../helpers/suite.ts";
import { ONCE_ON_SERVER } from "../helpers/database.ts";

let app: TestApp, smtp: Awaited<ReturnType<typeof startSmtpServer>>, owner: string, staff: string;
/** Another optician: the per-user limit is each user's own. */
let colleague: string;
/** 20 options of 50 items: seconds of layout. */
let maximal: { id: string };

const getPdf = (id: string, cookie = staff, on = app) =>
  fetch(`${on.baseUrl}/api/quotes/${id}/pdf`, { headers: { cookie } });

async function expect503(res: Response, message: string | RegExp) {
  expect(res.status).toBe(503);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect((await res.json()).message).toMatch(message);
  expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
}

describe("PDF limits", { skip: ONCE_ON_SERVER }, () => {
  // Inside the describe: a skipped run starts no app.
  useTestApp(async (started) => {
    ({ app, smtp } = started);
    owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
    staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
    colleague = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
    maximal = await createQuoteThroughApi(app, staff, maximalClient(), maximalOptions());
  }, { env: { PDF_WORKERS: "1", PDF_QUEUE: "1", PDF_TIMEOUT_MS: "1000" }, smtp: true });
  after(() => {
    // close() ended every renderer process.
    expect(app.pdf.stats()).toMatchObject({ workers: 0, busy: 0, queued: 0 });
  });

  it("cuts off a render over the time limit with a 503 and ends its renderer", async () => {
    await expect503(await getPdf(maximal.id), "took too long");
    expect(app.pdf.stats()).toMatchObject({ workers: 0, busy: 0, queued: 0 });
  });

  it("answers 503 at once to a PDF beyond the queue while others wait", async () => {
    const running = getPdf(maximal.id);
    await waitUntil(() => app.pdf.stats().busy === 1, "the first PDF reaches the renderer");
    const waiting = getPdf(maximal.id);
    await waitUntil(() => app.pdf.stats().queued === 1, "the second PDF waits in the queue");
    await expect503(await getPdf(maximal.id, colleague), "Too many PDFs");
    await expect503(await running, "took too long");
    // The waiting one may wait no longer than a render may take: it either
    // got a fresh renderer and ran out of time too, or waited out its turn.
    await expect503(await waiting, /took too long|Too many PDFs/);
  });

  it("e-mails make their PDF on the same renderers: over the limit, nothing is queued or sent", async () => {
    const settings = await call(app, "PUT", "/api/admin/settings", {
      cookie: owner,
      body: {
        smtpHost: "127.0.0.1",
        smtpPort: smtp.port,
        smtpUser: smtp.credentials.user,
        smtpPassEnc: smtp.credentials.pass,
        smtpFromEmail: "quotes@northside.test",
        smtpFromName: "Northside Eyewear",
      },
    });
    expect(settings.status).toBe(200);
    const refused = await fetch(`${app.baseUrl}/api/quotes/${maximal.id}/email`, {
      method: "POST",
      headers: { cookie: staff, "content-type": "application/json", origin: app.baseUrl },
      body: JSON.stringify({ email: "client@example.com" }),
    });
    await expect503(refused, "took too long");
    const queued = await app.db.selectFrom("emailOutbox").select("id")
      .where("quoteId", "=", maximal.id).execute();
    expect(queued).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it("one user has at most 2 PDFs in flight: ten at once leave the queue to everyone else", async () => {
    // Time enough for every render here: what is refused is refused at once, by count.
    const roomy = await startTestApp({
      PDF_WORKERS: "1",
      PDF_QUEUE: "4",
      PDF_TIMEOUT_MS: "120000",
    });
    try {
      const mine = await sessionCookieFor(roomy.db, (await createTestUser(roomy.db)).id);
      const theirs = await sessionCookieFor(roomy.db, (await createTestUser(roomy.db)).id);
      const big = await createQuoteThroughApi(roomy, mine, maximalClient(), maximalOptions());
      const small = await createQuoteThroughApi(
        roomy,
        theirs,
        maximalClient(),
        maximalOptions().slice(0, 1),
      );
      const ten = Array.from({ length: 10 }, () => getPdf(big.id, mine, roomy));
      await waitUntil(() => roomy.pdf.stats().busy === 1, "one of the ten renders");
      // A colleague's PDF still finds room in the queue, and is made.
      const colleagues = getPdf(small.id, theirs, roomy);
      const answers = await Promise.all(ten);
      const refused = answers.filter((r) => r.status === 429);
      expect(refused).toHaveLength(8);
      for (const r of refused) {
        expect(r.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
        expect((await r.json()).message).toBe(
          "You already have PDFs being made. Please wait for them to finish, then try again.",
        );
      }
      for (const r of answers.filter((r) => r.status !== 429)) {
        expect(r.status).toBe(200);
        await r.body?.cancel();
      }
      const theirsDone = await colleagues;
      expect(theirsDone.status).toBe(200);
      await theirsDone.body?.cancel();
    } finally {
      await roomy.close();
    }
  });
});
