// Online acceptance over HTTP: accepting a quote through its link, and declining it.
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { call, waitUntil } from "../helpers/test_app.ts";
import { STAFF_ONLY } from "../helpers/quote_fixture.ts";
import { unfoldQuotedPrintable } from "../helpers/online_link.ts";
import { signedAtText } from "../../src/print/print_model.ts";
import { pdfPageCount, readPdf, squeezed } from "../helpers/printed.ts";
import { acceptBody, app, history, nextAddress } from "./online_acceptance_fixture.ts";
import { openQuote, OPTICIAN_EMAIL, page, pdfText } from "./online_acceptance_fixture.ts";
import { PNG_1x1, sendLink, smtp, staff } from "./online_acceptance_fixture.ts";
import { useOnlineAcceptanceApp } from "./online_acceptance_fixture.ts";

useOnlineAcceptanceApp();

describe("accepting online", () => {
  it("finalizes the quote with the signer in one go; a replay changes nothing", async () => {
    const { quoteId, optionIds } = await openQuote();
    const path = await sendLink(quoteId);
    const from = nextAddress();
    const mailsBefore = smtp.received.length;
    const res = await call(app, "POST", `${path}/accept`, {
      body: acceptBody([optionIds[1]]),
      from,
      headers: { "user-agent": "PhoneBrowser/1.0" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "accepted", already: false, signerName: "Jane Doe" });
    const quote = await app.db.selectFrom("quotes").select(["status", "finalizedAt", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote.status).toBe("FINALIZED");
    expect(quote.finalizedAt).not.toBeNull();
    const acceptance = await app.db.selectFrom("quoteAcceptances").selectAll()
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(acceptance).toMatchObject({
      signerName: "Jane Doe",
      typedSignature: false,
      ip: from,
      userAgent: "PhoneBrowser/1.0",
      chosenOptionIds: [optionIds[1]],
    });
    expect(acceptance.signaturePng?.slice(1, 4)).toEqual(new TextEncoder().encode("PNG"));
    const chosen = await app.db.selectFrom("quoteOptions").select(["id", "isChosen"])
      .where("quoteId", "=", quoteId).orderBy("position").execute();
    expect(chosen.map((o) => o.isChosen)).toEqual([false, true]);
    expect(await history(quoteId)).toContain("Accepted online by Jane Doe");

    // The optician hears of it.
    await waitUntil(
      () => smtp.received.slice(mailsBefore).some((m) => m.to.includes(OPTICIAN_EMAIL)),
      "the optician's notice arrives",
    );
    const notice = smtp.received.slice(mailsBefore).find((m) => m.to.includes(OPTICIAN_EMAIL))!;
    expect(unfoldQuotedPrintable(notice.raw)).toContain("accepted online by Jane Doe");
    // The client gets the signed copy, once, at the address the link was sent to.
    const signedMails = () =>
      smtp.received.slice(mailsBefore).filter((m) => m.raw.includes("-signed.pdf"));
    await waitUntil(() => signedMails().length > 0, "the signed copy arrives");
    expect(signedMails()).toHaveLength(1);
    const sentTo = await app.db.selectFrom("quoteLinks").select("sentTo")
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(signedMails()[0].to).toEqual([sentTo.sentTo]);
    // Kept with the quote: the staff's "Signed copy" download.
    const pdf = await fetch(`${app.baseUrl}/api/quotes/${quoteId}/signed-pdf`, {
      headers: { cookie: staff },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain("Jane Doe");
    expect(text).toContain("Accepted online");
    // The option as the client chose it online: its name, not the staff's frame SKU.
    expect(text).toContain("Sport Pair");
    expect(text).not.toContain("OK-9102");
    expect(text).not.toContain("RB5154-2000");
    expect(text).not.toContain(STAFF_ONLY.internalNotes);

    // Another tab, a double tap: the same answer, nothing written twice.
    const again = await call(app, "POST", `${path}/accept`, {
      body: acceptBody([optionIds[0]], { signerName: "Someone Else" }),
      from,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "accepted", already: true, signerName: "Jane Doe" });
    expect(signedMails()).toHaveLength(1);
    const count = await app.db.selectFrom("quoteAcceptances").select(sql<number>`count(*)`.as("n"))
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    const after = await app.db.selectFrom("quotes").select("version").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(after.version).toBe(quote.version);
    // The spent link's page says so (410) with the store's contact.
    const spent = await page(path);
    expect(spent.status).toBe(410);
    expect(spent.text).toContain("already accepted");
    expect(spent.text).toContain("(555) 222-3333");
    expect(spent.text).toContain("hello@northside.test");
  });

  it("signs a copy naming the options as the client saw them, with their total, the terms and the store's time", async () => {
    const terms = "I accept Northside's terms: a deposit of half on ordering, " +
      "the rest when the glasses are ready. Frames ordered in are not returnable.";
    const zone = "Pacific/Auckland";
    expect(
      (await call(app, "PUT", "/api/admin/settings", {
        cookie: staff,
        body: { acceptanceTermsText: terms, timeZone: zone },
      })).status,
    ).toBe(200);
    try {
      const { quoteId, optionIds } = await openQuote();
      const path = await sendLink(quoteId);
      const res = await call(app, "POST", `${path}/accept`, {
        body: acceptBody(optionIds),
        from: nextAddress(),
      });
      expect(res.status).toBe(200);
      const acceptance = await app.db.selectFrom("quoteAcceptances")
        .select(["acceptedAt", "termsText"]).where("quoteId", "=", quoteId)
        .executeTakeFirstOrThrow();
      // The terms as the client ticked them are kept with the acceptance: a copy made
      // again after the store changed its terms still prints the ones accepted.
      expect(acceptance.termsText).toBe(terms);
      expect(
        (await call(app, "PUT", "/api/admin/settings", {
          cookie: staff,
          body: { acceptanceTermsText: "Newer terms nobody accepted." },
        })).status,
      ).toBe(200);
      await app.db.updateTable("quoteAcceptances").set({ signedPdf: null })
        .where("quoteId", "=", quoteId).execute();
      const pdf = await fetch(`${app.baseUrl}/api/quotes/${quoteId}/signed-pdf`, {
        headers: { cookie: staff },
      });
      expect(pdf.status).toBe(200);
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      // Each option on its sheet, then the signature page.
      expect(await pdfPageCount(bytes)).toBe(3);
      await readPdf(bytes, "signed-copy-floor4"); // kept to look at
      const text = await pdfText(bytes);
      const flat = squeezed(text);
      expect(text).toContain("Everyday");
      expect(text).toContain("Sport Pair");
      expect(text).not.toContain("RB5154-2000");
      expect(text).not.toContain("OK-9102");
      // The signature page: the options with their totals, what they come to, the terms.
      const signaturePage = squeezed(text.split("\f")[2]);
      expect(signaturePage).toContain(squeezed("Everyday $189.00"));
      expect(signaturePage).toContain(squeezed("Sport Pair $150.00"));
      expect(signaturePage).toContain(squeezed("Total accepted $339.00"));
      expect(signaturePage).toContain(squeezed(terms));
      expect(flat).not.toContain(squeezed("Newer terms nobody accepted."));
      // Signed at the store's time (Auckland), not the server's UTC nor the machine's zone.
      const at = new Date(acceptance.acceptedAt);
      const local = signedAtText(at, zone);
      expect(local).toMatch(/GMT\+1[23]$/);
      expect(local).not.toBe(signedAtText(at, "UTC"));
      expect(local).not.toBe(signedAtText(at));
      expect(signaturePage).toContain(squeezed(`Date: ${local}`));
      expect(flat).not.toContain(squeezed(signedAtText(at, "UTC")));
    } finally {
      await call(app, "PUT", "/api/admin/settings", {
        cookie: staff,
        body: { acceptanceTermsText: "", timeZone: "UTC" },
      });
    }
  });

  it("takes a typed-name signature instead of a drawing", async () => {
    const { quoteId, optionIds } = await openQuote();
    const path = await sendLink(quoteId);
    const res = await call(app, "POST", `${path}/accept`, {
      body: acceptBody(optionIds, { signaturePng: null, typedSignature: true }),
      from: nextAddress(),
    });
    expect(res.status).toBe(200);
    const acceptance = await app.db.selectFrom("quoteAcceptances")
      .select(["typedSignature", "signaturePng", "chosenOptionIds"])
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(acceptance.typedSignature).toBe(true);
    expect(acceptance.signaturePng).toBeNull();
    expect([...acceptance.chosenOptionIds].sort()).toEqual([...optionIds].sort());
  });

  it("refuses bad input with a 400 naming the field, writing nothing", async () => {
    const { quoteId, optionIds } = await openQuote();
    const path = await sendLink(quoteId);
    const from = nextAddress();
    const cases: [Record<string, unknown>, string][] = [
      [{ termsAccepted: false }, "termsAccepted"],
      [{ chosenOptionIds: [] }, "chosenOptionIds"],
      [{ signerName: " " }, "signerName"],
      [{ signaturePng: null }, "signaturePng"],
      [{ signaturePng: "data:image/png;base64,bm90IGEgcG5n" }, "signaturePng"],
      [{ chosenOptionIds: [crypto.randomUUID()] }, "chosenOptionIds"],
    ];
    for (const [over, field] of cases) {
      const res = await call<{ errors?: Record<string, string> }>(app, "POST", `${path}/accept`, {
        body: acceptBody(optionIds, over),
        from,
      });
      expect([field, res.status]).toEqual([field, 400]);
      expect(Object.keys(res.body.errors ?? {})).toContain(field);
    }
    // A signature over the size cap.
    const big = await call(app, "POST", `${path}/accept`, {
      body: acceptBody(optionIds, { signaturePng: PNG_1x1 + "A".repeat(300_000) }),
      from,
    });
    expect(big.status).toBe(400);
    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).not.toBe("FINALIZED");
    expect(
      await app.db.selectFrom("quoteAcceptances").select("id").where("quoteId", "=", quoteId)
        .execute(),
    ).toHaveLength(0);
  });
});

describe("declining online", () => {
  it("records the message and tells staff; the quote stays as it was", async () => {
    const { quoteId } = await openQuote();
    const path = await sendLink(quoteId);
    const before = await app.db.selectFrom("quotes").select(["status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    const mailsBefore = smtp.received.length;
    const res = await call(app, "POST", `${path}/decline`, {
      body: { message: "Too expensive for now" },
      from: nextAddress(),
    });
    expect(res.status).toBe(200);
    const after = await app.db.selectFrom("quotes").select(["status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const rows = await app.db.selectFrom("quoteDeclines").select("message")
      .where("quoteId", "=", quoteId).execute();
    expect(rows.map((r) => r.message)).toEqual(["Too expensive for now"]);
    expect(await history(quoteId)).toContain('Declined online: "Too expensive for now"');
    await waitUntil(
      () => smtp.received.slice(mailsBefore).some((m) => m.to.includes(OPTICIAN_EMAIL)),
      "the optician's notice arrives",
    );
    const notice = smtp.received.slice(mailsBefore).find((m) => m.to.includes(OPTICIAN_EMAIL))!;
    expect(unfoldQuotedPrintable(notice.raw)).toContain("Too expensive for now");
    // The link still works: the client may still accept.
    expect((await page(path)).status).toBe(200);
  });
});
