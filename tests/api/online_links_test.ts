// Online acceptance over HTTP: the e-mail's link, links that no longer work, the guards
// on the public routes, and what staff see of a quote's links.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Kysely } from "kysely";
import { call } from "../helpers/test_app.ts";
import { STAFF_ONLY } from "../helpers/quote_fixture.ts";
import { tablesHolding, unfoldQuotedPrintable } from "../helpers/online_link.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { newLinkToken } from "../../src/quotes/online_links.ts";
import { ONLINE_LINK_RULE } from "../../src/auth/throttle.ts";
import { up as withoutOldLinkTokens } from "../../db/migrations/0034_sent_mail_without_link_tokens.ts";
import { acceptBody, app, history, log, nextAddress } from "./online_acceptance_fixture.ts";
import { openQuote, page, sendLink, smtp, staff } from "./online_acceptance_fixture.ts";
import { useOnlineAcceptanceApp } from "./online_acceptance_fixture.ts";

useOnlineAcceptanceApp();

describe("the e-mail's online link", () => {
  it("is in the quote e-mail under APP_URL, stored only as a hash, never logged", async () => {
    const { quoteId } = await openQuote();
    const path = await sendLink(quoteId);
    const token = path.slice(3);
    const mail = unfoldQuotedPrintable(smtp.received.at(-1)!.raw);
    expect(mail).toContain("View and accept your quote online");
    expect(mail).toContain(`${app.config.appUrl}${path}`);
    const rows = await app.db.selectFrom("quoteLinks").selectAll().where("quoteId", "=", quoteId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
    const res = await page(path);
    expect(res.status).toBe(200);
    await call(app, "POST", `${path}/decline`, { body: { message: "" }, from: nextAddress() });
    const logged = JSON.stringify(log.lines);
    expect(logged).toContain("/q/:token");
    expect(logged).not.toContain(token);
  });

  it("is taken out of the e-mail's stored copy once sent: no row holds it in clear, and it works", async () => {
    const { quoteId } = await openQuote();
    const path = await sendLink(quoteId);
    const token = path.slice(3);
    // The client received it...
    const mail = unfoldQuotedPrintable(smtp.received.at(-1)!.raw);
    expect(mail).toContain(`${app.config.appUrl}${path}`);
    // ...and the outbox keeps the message without it.
    const kept = await app.db.selectFrom("emailOutbox").select(["status", "html", "textBody"])
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(kept.status).toBe("SENT");
    for (const body of [kept.html, kept.textBody]) {
      expect(body).not.toContain(token);
      expect(body).toContain("View and accept your quote online");
      expect(body).toContain(`${app.config.appUrl}/q/[link removed after sending]`);
    }
    // Nowhere else either: no table of the database has a row holding the token.
    expect(await tablesHolding(app.db, token)).toEqual({});
    // The client's link still works: the database checks it by its hash (and
    // keeps only that of what the page's visit and limits write).
    expect((await page(path)).status).toBe(200);
    expect(await tablesHolding(app.db, token)).toEqual({});
    const link = await app.db.selectFrom("quoteLinks").select("tokenHash")
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(link.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is taken out of the copies of e-mails sent before (migration 0034), not of those waiting", async () => {
    const [sent, waiting] = [newLinkToken(), newLinkToken()];
    const rows = [["SENT", sent], ["PENDING", waiting]] as const;
    const ids: string[] = [];
    for (const [status, token] of rows) {
      const link = `${app.config.appUrl}/q/${token}`;
      const row = await app.db.insertInto("emailOutbox").values({
        quoteId: null,
        toAddress: "old@example.com",
        subject: "Quote",
        html: `<p><a href="${link}">View and accept your quote online</a></p>`,
        textBody: `View and accept your quote online:\n${link}`,
        createdBy: null,
        // Not due: the worker of this app leaves the waiting one alone.
        nextAttemptAt: new Date(Date.now() + 86_400_000),
      }).returning("id").executeTakeFirstOrThrow();
      if (status === "SENT") {
        await app.db.updateTable("emailOutbox").set({ status, sentAt: new Date() })
          .where("id", "=", row.id).execute();
      }
      ids.push(row.id);
    }
    await withoutOldLinkTokens(app.db as unknown as Kysely<unknown>);
    const kept = await app.db.selectFrom("emailOutbox").select(["id", "html", "textBody"])
      .where("id", "in", ids).execute();
    const byId = new Map(kept.map((r) => [r.id, `${r.html}\n${r.textBody}`]));
    expect(byId.get(ids[0])).not.toContain(sent);
    expect(byId.get(ids[0])).toContain(`${app.config.appUrl}/q/[link removed after sending]"`);
    expect(byId.get(ids[1])?.split(waiting)).toHaveLength(3);
    await app.db.deleteFrom("emailOutbox").where("id", "in", ids).execute();
  });

  it("shows the client copy with every option and the validity date, never internal notes", async () => {
    const { quoteId } = await openQuote();
    const path = await sendLink(quoteId);
    const res = await page(path);
    expect(res.status).toBe(200);
    // Options are titled by their label, as on the tablet.
    expect(res.text).toContain("Everyday");
    expect(res.text).toContain("Sport Pair");
    expect(res.text).toContain("$189.00");
    expect(res.text).toContain("Prices valid until");
    expect(res.text).toContain("Northside Eyewear");
    expect(res.text).toContain("(555) 222-3333");
    for (const secret of [STAFF_ONLY.internalNotes, STAFF_ONLY.optionNotes]) {
      expect(res.text).not.toContain(secret);
    }
    // No staff chrome.
    expect(res.text).not.toContain("Sign out");
    expect(res.text).not.toContain('data-island="SearchBox"');
  });

  it("writes 'Viewed by the client' once a day and marks the quote viewed", async () => {
    const { quoteId } = await openQuote();
    const path = await sendLink(quoteId);
    await page(path);
    await page(path);
    const viewed = (await history(quoteId)).filter((s) => s === "Viewed by the client");
    expect(viewed).toHaveLength(1);
    const quote = await app.db.selectFrom("quotes").select(["clientViewedAt", "status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote.clientViewedAt).not.toBeNull();
    // A view is not a change: the link still works.
    expect((await page(path)).status).toBe(200);
  });
});

describe("links that no longer work", () => {
  it("a quote changed after the send: 410 page, and 409 with the promised words on accept", async () => {
    const { quoteId, optionIds, clientId } = await openQuote();
    // Measurements complete, so the save leaves the quote ACTIVE (acceptable online).
    await app.db.insertInto("clientMeasurements").values({
      clientId,
      pdBinocular: "62",
      pdNear: "59",
      measurementsComplete: true,
    }).execute();
    const path = await sendLink(quoteId);
    const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${quoteId}`, {
      cookie: staff,
    })).body;
    const saved = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: staff,
      body: {
        version: bundle.quote.version,
        opticianName: bundle.quote.opticianName,
        options: bundle.options.map((o) => ({
          id: o.id,
          label: o.label,
          items: o.items.map((i) => ({
            kind: i.kind,
            name: i.name,
            sku: i.sku,
            unitPrice: "99.00",
            qty: i.qty,
          })),
        })),
      },
    });
    expect(saved.status).toBe(200);
    const res = await page(path);
    expect(res.status).toBe(410);
    expect(res.text).toContain("the store will send you a new link");
    const accept = await call<{ message: string }>(app, "POST", `${path}/accept`, {
      body: acceptBody(optionIds),
      from: nextAddress(),
    });
    expect(accept.status).toBe(409);
    expect(accept.body.message).toBe("This quote has changed; the store will send you a new link.");
    // A new e-mail gives a new link that works.
    expect((await page(await sendLink(quoteId))).status).toBe(200);
  });

  it("revoked by staff: every unspent link of the quote stops, and the history says so", async () => {
    const { quoteId, optionIds } = await openQuote();
    const first = await sendLink(quoteId);
    const second = await sendLink(quoteId);
    expect((await page(first)).status).toBe(200);
    const revoke = await call<{ revoked: number }>(
      app,
      "POST",
      `/api/quotes/${quoteId}/online-links/revoke`,
      { cookie: staff },
    );
    expect(revoke.status).toBe(200);
    expect(revoke.body.revoked).toBe(2);
    for (const path of [first, second]) {
      const res = await page(path);
      expect(res.status).toBe(410);
      expect(res.text).toContain("withdrawn");
    }
    const accept = await call(app, "POST", `${first}/accept`, {
      body: acceptBody(optionIds),
      from: nextAddress(),
    });
    expect(accept.status).toBe(410);
    expect(await history(quoteId)).toContain("Online links revoked");
    // Staff only.
    expect((await call(app, "POST", `/api/quotes/${quoteId}/online-links/revoke`)).status).toBe(
      401,
    );
  });

  it("expired (the quote's date, or the link's own 30 days) and closed quotes: 410", async () => {
    const a = await openQuote();
    const pathA = await sendLink(a.quoteId);
    await app.db.updateTable("quotes").set({ expiresAt: new Date(Date.now() - 60_000) })
      .where("id", "=", a.quoteId).execute();
    expect((await page(pathA)).status).toBe(410);

    const b = await openQuote();
    const pathB = await sendLink(b.quoteId);
    await app.db.updateTable("quoteLinks").set({ expiresAt: new Date(Date.now() - 1000) })
      .where("quoteId", "=", b.quoteId).execute();
    expect((await page(pathB)).status).toBe(410);

    const c = await openQuote();
    const pathC = await sendLink(c.quoteId);
    const closed = await call(app, "POST", `/api/quotes/${c.quoteId}/close`, {
      cookie: staff,
      body: { reason: "Went elsewhere" },
    });
    expect(closed.status).toBe(200);
    const res = await page(pathC);
    expect(res.status).toBe(410);
    expect(res.text).not.toContain("RB5154-2000");
  });

  it("unknown and malformed tokens get the same answer as an expired link", async () => {
    const expired = await openQuote();
    const path = await sendLink(expired.quoteId);
    await app.db.updateTable("quoteLinks").set({ expiresAt: new Date(Date.now() - 1000) })
      .where("quoteId", "=", expired.quoteId).execute();
    const body = (text: string) => text.replace(/nonce="[^"]+"/g, "");
    const reference = await page(path);
    for (const other of [`/q/${newLinkToken()}`, "/q/short", "/q/%E2%9C%93"]) {
      const res = await page(other);
      expect([other, res.status]).toEqual([other, 410]);
      expect(body(res.text)).toBe(body(reference.text));
    }
    const accept = await call(app, "POST", `/q/${newLinkToken()}/accept`, {
      body: acceptBody([crypto.randomUUID()]),
      from: nextAddress(),
    });
    expect(accept.status).toBe(410);
  });
});

describe("guards", () => {
  it("limits accept and decline per link, with Retry-After", async () => {
    const { quoteId } = await openQuote();
    const path = await sendLink(quoteId);
    const statuses: number[] = [];
    for (let i = 0; i <= ONLINE_LINK_RULE.maxEvents; i++) {
      // Each from its own address: the per-link count alone refuses the last.
      const res = await call(app, "POST", `${path}/accept`, {
        body: acceptBody([], { termsAccepted: false }),
        from: nextAddress(),
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("limits accept and decline per address, over every link", async () => {
    const from = nextAddress();
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (await call(app, "POST", `/q/${newLinkToken()}/decline`, { body: {}, from })).status;
    }
    expect(last).toBe(429);
  });

  it("refuses cross-site posts before anything is written", async () => {
    const { quoteId, optionIds } = await openQuote();
    const path = await sendLink(quoteId);
    const hostile: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of hostile) {
      const res = await call(app, "POST", `${path}/accept`, {
        body: acceptBody(optionIds),
        headers,
        from: nextAddress(),
      });
      expect(res.status).toBe(403);
      const decline = await call(app, "POST", `${path}/decline`, {
        body: { message: "x" },
        headers,
        from: nextAddress(),
      });
      expect(decline.status).toBe(403);
    }
    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).not.toBe("FINALIZED");
    // The same post from the page's own origin goes through.
    const ok = await call(app, "POST", `${path}/accept`, {
      body: acceptBody(optionIds),
      headers: { origin: app.baseUrl, "sec-fetch-site": "same-origin" },
      from: nextAddress(),
    });
    expect(ok.status).toBe(200);
  });
});

describe("what staff see", () => {
  it("the dashboard's Accepted Online list, the quotes list's viewed mark, the builder's state", async () => {
    const { quoteId, optionIds } = await openQuote();
    const path = await sendLink(quoteId);
    await page(path);
    const list = await call<{ id: string; clientViewedAt: string | null }[]>(
      app,
      "GET",
      "/api/quotes?limit=500",
      { cookie: staff },
    );
    expect(list.body.find((r) => r.id === quoteId)?.clientViewedAt).toBeTruthy();
    const before = await call<{ liveLinks: number; viewedAt: string | null }>(
      app,
      "GET",
      `/api/quotes/${quoteId}/online`,
      { cookie: staff },
    );
    expect(before.body).toMatchObject({ liveLinks: 1, acceptance: null });
    expect(before.body.viewedAt).toBeTruthy();
    const accepted = await call(app, "POST", `${path}/accept`, {
      body: acceptBody([optionIds[0]], { signerName: "Dana Board" }),
      from: nextAddress(),
    });
    expect(accepted.status).toBe(200);
    const dashboard = await call<string>(app, "GET", "/dashboard", {
      cookie: staff,
      headers: { accept: "text/html" },
    });
    expect(dashboard.text).toContain("Accepted Online");
    expect(dashboard.text).toContain("signed by Dana Board");
    const after = await call(app, "GET", `/api/quotes/${quoteId}/online`, { cookie: staff });
    expect(after.body).toMatchObject({
      liveLinks: 0,
      acceptance: { signerName: "Dana Board", typedSignature: false },
    });
    expect((await call(app, "GET", `/api/quotes/${quoteId}/online`)).status).toBe(401);
  });

  it("the page shows the store's own terms from Settings", async () => {
    const terms = "I agree to Northside's terms: deposit of 50% on ordering.";
    const set = await call(app, "PUT", "/api/admin/settings", {
      cookie: staff,
      body: { acceptanceTermsText: terms },
    });
    expect(set.status).toBe(200);
    const { quoteId } = await openQuote();
    const res = await page(await sendLink(quoteId));
    expect(res.text).toContain(terms);
    const settings = await call(app, "GET", "/api/admin/settings", { cookie: staff });
    expect(settings.body).toMatchObject({ acceptanceTermsText: terms });
    await call(app, "PUT", "/api/admin/settings", {
      cookie: staff,
      body: { acceptanceTermsText: "" },
    });
  });
});
