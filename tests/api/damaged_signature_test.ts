// A signature image the signed copy's PDF cannot draw (security review): the
// online acceptance refuses it before anything is written, and one kept
// before that check (old data) makes the staff's download a 422 that says
// why, never a 500, never a renderer brought down for other PDFs, and is not
// retried by the background pass, whose staff side says why.
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { encodeBase64 } from "@oslojs/encoding";
import { call, capturingLogger, type TestApp } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { linkedQuote, storeWithMail } from "../helpers/online_link.ts";
import { damagedSignatures, signaturePng } from "../helpers/images.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useTestApp } from "../helpers/suite.ts";
import { retryOwedSignedCopies } from "../../src/quotes/online_signed_copy.ts";
import type { OnlineState } from "../../src/quotes/online_state.ts";

let app: TestApp;
let smtp: SmtpServer;
let staff: string;
const log = capturingLogger();
let address = 60;

useTestApp(async (started) => {
  ({ app, smtp } = started);
  staff = await storeWithMail(app, smtp, "owner@northside.test");
}, { logger: log.logger, smtp: true });

const dataUrl = (png: Uint8Array) => `data:image/png;base64,${encodeBase64(png)}`;

/** An open quote with an online link sent to `sentTo`; its id, options and the link's token. */
const linked = (sentTo: string) => linkedQuote(app.db, sentTo, `Client${address}`);

const accept = (token: string, optionIds: string[], signaturePng: string) =>
  call<{ message: string; errors?: Record<string, string> }>(app, "POST", `/q/${token}/accept`, {
    body: {
      chosenOptionIds: optionIds,
      signerName: "Jane Doe",
      signaturePng,
      typedSignature: false,
      termsAccepted: true,
    },
    from: `127.0.1.${address++}`,
  });

/**
 * An acceptance as it was kept before signatures were decoded: the damaged
 * image is in the row, its signed copy not made and still owed.
 */
async function acceptedBeforeTheCheck(sentTo: string, png: Uint8Array) {
  const q = await linked(sentTo);
  const link = await app.db.selectFrom("quoteLinks").select("id")
    .where("quoteId", "=", q.quoteId).executeTakeFirstOrThrow();
  const acceptedAt = new Date("2025-03-04T15:30:00Z");
  await app.db.updateTable("quotes").set({ status: "FINALIZED", finalizedAt: acceptedAt })
    .where("id", "=", q.quoteId).execute();
  await app.db.updateTable("quoteLinks").set({ spentAt: acceptedAt }).where("id", "=", link.id)
    .execute();
  await app.db.insertInto("quoteAcceptances").values({
    quoteId: q.quoteId,
    linkId: link.id,
    signerName: "Jane Doe",
    signaturePng: png,
    typedSignature: false,
    chosenOptionIds: sql`${JSON.stringify([q.optionIds[0]])}::text::jsonb`,
    // Recent enough that the background pass still owes its e-mail.
    acceptedAt: new Date(),
  }).execute();
  return q;
}

const getPdf = (path: string) => fetch(`${app.baseUrl}${path}`, { headers: { cookie: staff } });

describe("a signature image the signed copy cannot draw", () => {
  it("is refused at acceptance with a 400 on signaturePng, and nothing is written", async () => {
    for (const [name, png] of Object.entries(damagedSignatures())) {
      const q = await linked("jane.damaged@example.com");
      const res = await accept(q.token, [q.optionIds[0]], dataUrl(png));
      expect([name, res.status]).toEqual([name, 400]);
      expect([name, res.body.errors]).toEqual([
        name,
        { signaturePng: "The signature image could not be read" },
      ]);
      const quote = await app.db.selectFrom("quotes").select("status")
        .where("id", "=", q.quoteId).executeTakeFirstOrThrow();
      expect([name, quote.status]).toEqual([name, "ACTIVE"]);
      const rows = await app.db.selectFrom("quoteAcceptances").select("id")
        .where("quoteId", "=", q.quoteId).execute();
      expect([name, rows]).toEqual([name, []]);
      const link = await app.db.selectFrom("quoteLinks").select("spentAt")
        .where("quoteId", "=", q.quoteId).executeTakeFirstOrThrow();
      expect([name, link.spentAt]).toEqual([name, null]);
    }
  });

  it("takes what react-pdf draws (16 bits a sample, interlaced) and makes its signed copy", async () => {
    const q = await linked("jane.sixteen@example.com");
    const { png } = signaturePng({ depth: 16, interlaced: true });
    const res = await accept(q.token, [q.optionIds[0]], dataUrl(png));
    expect(res.status).toBe(200);
    const pdf = await getPdf(`/api/quotes/${q.quoteId}/signed-pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it("kept before the check: the download says why (422, not 500); other PDFs are made meanwhile", async () => {
    const damaged = await acceptedBeforeTheCheck(
      "jane.old@example.com",
      damagedSignatures()["unknown row filter"],
    );
    const other = await insertSavedQuote(app.db, { firstName: "Other" });
    const startedBefore = app.pdf.stats().started;
    const [signed, pdf] = await Promise.all([
      getPdf(`/api/quotes/${damaged.quoteId}/signed-pdf`),
      getPdf(`/api/quotes/${other.quoteId}/pdf`),
    ]);
    expect(signed.status).toBe(422);
    expect(signed.headers.get("content-type")).toMatch(/^application\/json/);
    const { message } = await signed.json();
    expect(message).toMatch(
      /^The signed copy cannot be made: the signature image stored with this acceptance is damaged\. The acceptance itself stands \(signed by Jane Doe on \w+ \d+, \d{4} at .+\)\.$/,
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    await pdf.body?.cancel();
    // Right after, the same again: no renderer was lost to the bad image.
    const again = await getPdf(`/api/quotes/${other.quoteId}/pdf`);
    expect(again.status).toBe(200);
    await again.body?.cancel();
    expect((await getPdf(`/api/quotes/${damaged.quoteId}/signed-pdf`)).status).toBe(422);
    expect(app.pdf.stats().started - startedBefore).toBeLessThanOrEqual(1);
    // The acceptance itself stands.
    const quote = await app.db.selectFrom("quotes").select("status")
      .where("id", "=", damaged.quoteId).executeTakeFirstOrThrow();
    expect(quote.status).toBe("FINALIZED");
  });

  it("kept before the check: the background pass gives it up at once, and staff read why", async () => {
    const to = "jane.retry@example.com";
    const { quoteId } = await acceptedBeforeTheCheck(to, damagedSignatures()["corrupt IDAT"]);
    const state = () =>
      app.db.selectFrom("quoteAcceptances")
        .select(["signedCopyAttempts", "signedCopyNextAt", "signedCopyProblem", "signedPdf"])
        .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    const startedBefore = app.pdf.stats().started;
    const now = new Date();
    expect(await retryOwedSignedCopies(app.db, app.pdf, app.config, log.logger, now))
      .toBeGreaterThanOrEqual(1);
    const after = await state();
    expect(after).toMatchObject({ signedCopyAttempts: 1, signedCopyNextAt: null, signedPdf: null });
    expect(after.signedCopyProblem).toMatch(
      /signature image stored with this acceptance is damaged/,
    );
    expect(
      log.lines.some((l) => l.message === "signed copy given up" && l.fields?.quoteId === quoteId),
    ).toBe(true);
    // Never tried again, however long the passes go on.
    for (const hours of [1, 5, 24]) {
      const later = new Date(now.getTime() + hours * 3_600_000);
      await retryOwedSignedCopies(app.db, app.pdf, app.config, log.logger, later);
    }
    expect((await state()).signedCopyAttempts).toBe(1);
    // No renderer was started (or broken) for it, and no mail went to the client.
    expect(app.pdf.stats().started).toBe(startedBefore);
    expect(smtp.received.filter((m) => m.to.includes(to))).toEqual([]);
    // The builder's online card says why.
    const online = await call<OnlineState>(app, "GET", `/api/quotes/${quoteId}/online`, {
      cookie: staff,
    });
    expect(online.body.acceptance?.signedCopyProblem).toBe(after.signedCopyProblem);
  });
});
