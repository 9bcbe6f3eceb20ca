import { describe, it } from "node:test";
import { expect } from "expect";
import { startAppProcess } from "../helpers/process.ts";

describe("main.ts as a process", () => {
  it("starts, creates the first owner once, logs requests, and stops cleanly on SIGTERM", async () => {
    const app = await startAppProcess({
      DATABASE_URL: "memory://",
      OWNER_USERNAME: "olivia",
      OWNER_PASSWORD: "s3cret-pass",
    });
    try {
      expect(app.seen.some((l) => l.includes('"msg":"first owner account created"'))).toBe(true);
      const health = await fetch(`${app.baseUrl}/healthz`);
      expect(health.status).toBe(200);
      const requestId = health.headers.get("x-request-id");
      await health.body?.cancel();
      const log = JSON.parse(await app.waitForLine((l) => l.includes('"msg":"request"')));
      expect(log).toMatchObject({
        level: "info",
        method: "GET",
        path: "/healthz",
        status: 200,
        reqId: requestId,
      });
      expect(typeof log.ms).toBe("number");

      // A quote PDF starts a PDF worker; SIGTERM ends it with the server.
      const base = app.baseUrl;
      const json = { "content-type": "application/json", origin: base };
      const login = await fetch(`${base}/api/staff/login`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ username: "olivia", password: "s3cret-pass" }),
      });
      expect(login.status).toBe(200);
      await login.body?.cancel();
      const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const created = await fetch(`${base}/api/clients`, {
        method: "POST",
        headers: { ...json, cookie },
        body: JSON.stringify({ firstName: "Łukasiewicz", lastName: "Иванова" }),
      });
      const { quote } = await created.json();
      const res = await fetch(`${base}/api/quotes/${quote.id}/pdf`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      await res.body?.cancel();
      const status = await app.stop();
      const ended = JSON.parse(
        await app.waitForLine((l) => l.includes('"msg":"pdf workers ended"')),
      );
      expect(ended.workers).toBe(1);
      await app.waitForLine((l) => l.includes('"msg":"stopped"'));
      expect(status.code).toBe(0);
    } finally {
      await app.kill();
    }
  });

  it("writes one readable line per event with LOG_FORMAT=text", async () => {
    const app = await startAppProcess({ DATABASE_URL: "memory://", LOG_FORMAT: "text" });
    try {
      const res = await fetch(`${app.baseUrl}/healthz`);
      const requestId = res.headers.get("x-request-id");
      await res.body?.cancel();
      const line = await app.waitForLine((l) => l.includes(" request GET /healthz"));
      expect(line).toMatch(
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z INFO  request GET /healthz 200 \\d+ms reqId=${requestId}$`,
        ),
      );
    } finally {
      await app.kill();
    }
  });
});
