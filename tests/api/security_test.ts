import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, startTestApp, type TestApp } from "../helpers/test_app.ts";

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

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
