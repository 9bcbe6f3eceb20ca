// One engine: headers, CSP, origins and body limits are the HTTP layer's, whatever database is
// under it.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { hasControlChar, HOSTILE_RETURN_TO } from "../helpers/hostile_return_to.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
/** The answer the probe route made, to compare with the one the app sends. */
let probeAnswer: Response | undefined;
useTestApp((started) => {
  ({ app } = started);
  // Added before any request builds the router; every middleware runs around it.
  app.app.get("/answer-probe", (c) => (probeAnswer = c.html("<p>probe</p>")));
});

describe("security headers", () => {
  it("every page carries a nonce CSP, and its scripts carry that nonce", async () => {
    const res = await call<string>(app, "GET", "/staff", { headers: { accept: "text/html" } });
    const csp = res.headers.get("content-security-policy")!;
    for (
      const directive of [
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "default-src 'self'",
      ]
    ) {
      expect(csp).toContain(directive);
    }
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    const scripts = [...res.text.matchAll(/<script type="module"[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBe(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("gives each response its own nonce and a request id", async () => {
    const a = await call(app, "GET", "/staff");
    const b = await call(app, "GET", "/staff");
    expect(a.headers.get("content-security-policy")).not.toBe(
      b.headers.get("content-security-policy"),
    );
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves built assets with a long-lived cache", async () => {
    const html = (await call<string>(app, "GET", "/staff")).text;
    const src = /src="(\/static\/build\/[^"]+\.js)"/.exec(html)![1];
    const res = await fetch(app.baseUrl + src);
    await res.body?.cancel();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-type")).toContain("javascript");
    for (const [accept, encoding] of [["br, gzip", "br"], ["gzip", "gzip"]]) {
      const packed = await fetch(app.baseUrl + src, { headers: { "accept-encoding": accept } });
      await packed.body?.cancel();
      expect(packed.headers.get("content-encoding")).toBe(encoding);
      expect(packed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });

  it("does not serve files outside static/", async () => {
    const res = await fetch(app.baseUrl + "/static/..%2f..%2fdeno.json");
    await res.body?.cancel();
    expect(res.status).toBe(404);
  });
});

describe("cross-site requests", () => {
  it("refuses an unsafe request from another origin, JSON or not", async () => {
    const user = await createTestUser(app.db);
    const body = { username: user.username, password: user.password };
    const evil = await call(app, "POST", "/api/staff/login", {
      body,
      headers: { origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    expect(evil.body).toEqual({ message: "Cross-site request blocked" });
    const crossSite = await call(app, "POST", "/api/staff/login", {
      body,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await call(app, "POST", "/api/staff/login", {
      body,
      headers: { "sec-fetch-site": "same-site" },
    });
    expect(sameSite.status).toBe(403);
    const same = await call(app, "POST", "/api/staff/login", {
      body,
      headers: { origin: app.baseUrl, "sec-fetch-site": "same-origin" },
    });
    expect(same.status).toBe(200);
  });
});

describe("request body limit", () => {
  it("refuses a body over 1 MiB with a 413", async () => {
    const big = JSON.stringify({ username: "x".repeat(1024 * 1024 + 10), password: "x" });
    const res = await call(app, "POST", "/api/staff/login", { body: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "Request body too large (limit 1024 KiB)" });
  });

  it("counts a streamed body without a length too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 2 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(app.baseUrl + "/api/staff/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
    });
    expect(res.status).toBe(413);
    await res.body?.cancel();
  });
});

describe("browser caching of staff data", () => {
  it("every API answer says no-store: JSON, PDF, redirects and errors", async () => {
    const user = await createTestUser(app.db);
    const cookie = await sessionCookieFor(app.db, user.id);
    const client = await app.db.insertInto("clients").values({
      firstName: "Cache",
      lastName: "Test",
    })
      .returning("id").executeTakeFirstOrThrow();
    const quote = await app.db.insertInto("quotes").values({
      clientId: client.id,
      status: "ACTIVE",
    })
      .returning("id").executeTakeFirstOrThrow();
    const answers = [
      ["GET", "/api/auth/user", cookie, 200],
      ["GET", `/api/clients/${client.id}`, cookie, 200],
      ["GET", `/api/quotes/${quote.id}/pdf`, cookie, 200],
      ["GET", "/api/auth/user", undefined, 401],
      ["GET", `/api/clients/${crypto.randomUUID()}`, cookie, 404],
      ["GET", "/api/nope", cookie, 404],
      ["GET", "/api/clients?limit=abc", cookie, 400],
      ["GET", "/api/login?returnTo=%2Fclients", undefined, 302],
      ["POST", "/api/staff/login", undefined, 401],
      ["GET", "/api/staff/logout", cookie, 302],
    ] as const;
    for (const [method, path, withCookie, status] of answers) {
      const res = await call(app, method, path, {
        cookie: withCookie,
        body: method === "POST" ? { username: "nobody", password: "wrong" } : undefined,
      });
      // "private, no-store" (the PDF's own) is as strict; nothing may allow storing.
      const cacheControl = res.headers.get("cache-control")?.replace("private, ", "");
      expect([method, path, res.status, cacheControl]).toEqual([method, path, status, "no-store"]);
    }
  });

  it("every signed-in page says no-store, and so do sign-in pages and their redirects", async () => {
    const user = await createTestUser(app.db);
    const cookie = await sessionCookieFor(app.db, user.id);
    const pages = [
      ["/dashboard", cookie, 200],
      ["/clients?id=" + crypto.randomUUID(), cookie, 200],
      ["/admin/users", cookie, 403],
      ["/no-such-page", cookie, 404],
      ["/staff", cookie, 302],
      ["/staff", undefined, 200],
      ["/", undefined, 200],
      ["/clients", undefined, 302],
    ] as const;
    for (const [path, withCookie, status] of pages) {
      const res = await call(app, "GET", path, {
        cookie: withCookie,
        headers: { accept: "text/html" },
      });
      expect([path, res.status, res.headers.get("cache-control")]).toEqual([
        path,
        status,
        "no-store",
      ]);
    }
  });
});

describe("answers as the handler made them", () => {
  it("leave the middleware as the same Response, saying no-store and Vary", async () => {
    // Setting a header with c.header() once a handler has answered copies the
    // answer into a new Response around its body's stream, and every page and
    // JSON answer then went out through the slow streaming path (routes/app.ts).
    const res = await app.app.request("/answer-probe");
    expect(res).toBe(probeAnswer);
    expect([res.headers.get("cache-control"), res.headers.get("vary")])
      .toEqual(["no-store", "Accept-Encoding"]);
    expect(await res.text()).toBe("<p>probe</p>");
  });
});

describe("returnTo stays on the site", () => {
  it("/staff, signed out, hands only a local returnTo to the sign-in form", async () => {
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await call<string>(
        app,
        "GET",
        `/staff?returnTo=${encodeURIComponent(returnTo)}`,
        {
          headers: { accept: "text/html" },
        },
      );
      // A control character is refused by the query guard of every route with a 400;
      // every other hostile value is dropped and the form opens without it.
      expect([returnTo, res.status]).toEqual([returnTo, hasControlChar(returnTo) ? 400 : 200]);
      expect([returnTo, res.text.includes("evil.example"), res.text.includes('name="returnTo"')])
        .toEqual([returnTo, false, false]);
    }
    const ok = await call<string>(app, "GET", "/staff?returnTo=%2Fquotes%3Ffilter%3Dexpired", {
      headers: { accept: "text/html" },
    });
    // The plain form carries it in a hidden field.
    expect(ok.text).toContain(
      '<input type="hidden" name="returnTo" value="/quotes?filter=expired"/>',
    );
    // The Owner Login link carries it too, with the intent that reaches the provider.
    expect(ok.text).toContain(
      'href="/api/login?intent=owner&amp;returnTo=%2Fquotes%3Ffilter%3Dexpired"',
    );
  });

  it("/staff, signed in, goes on to a local returnTo, else to the dashboard", async () => {
    const user = await createTestUser(app.db);
    const cookie = await sessionCookieFor(app.db, user.id);
    const go = (returnTo: string) =>
      call(app, "GET", `/staff?returnTo=${encodeURIComponent(returnTo)}`, { cookie });
    const ok = await go("/quotes?filter=expired");
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/quotes?filter=expired");
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await go(returnTo);
      expect([returnTo, res.status, res.headers.get("location")]).toEqual(
        hasControlChar(returnTo) ? [returnTo, 400, null] : [returnTo, 302, "/dashboard"],
      );
    }
  });

  it("the e-mail banner's dismiss goes back only to a page of this site", async () => {
    const owner = await createTestUser(app.db, { role: "OWNER" });
    const cookie = await sessionCookieFor(app.db, owner.id);
    const dismiss = (returnTo: string) =>
      call(app, "POST", "/api/email-banner/dismiss", {
        cookie,
        body: new URLSearchParams({ returnTo }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", origin: app.baseUrl },
      });
    expect((await dismiss("/clients")).headers.get("location")).toBe("/clients");
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await dismiss(returnTo);
      expect([returnTo, res.status, res.headers.get("location")]).toEqual([
        returnTo,
        303,
        "/dashboard",
      ]);
    }
  });
});
