import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { apiRequest, handleUnauthorized, UNAUTHORIZED_REDIRECT_MS } from "./api_client.ts";
import { currentToast, dismissToast } from "./toast.tsx";

let server: Deno.HttpServer<Deno.NetAddr>;
let base: string;
const seen: Array<{ method: string; type: string | null; body: string }> = [];

before(() => {
  server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    seen.push({
      method: req.method,
      type: req.headers.get("content-type"),
      body: await req.text(),
    });
    switch (path) {
      case "/ok":
        return Response.json({ hello: "world" });
      case "/json-error":
        return Response.json({ message: "First name is required" }, { status: 400 });
      case "/text-error":
        return new Response("plain failure", { status: 502 });
      case "/empty-error":
        return new Response(null, { status: 503, statusText: "Service Unavailable" });
      case "/unauthorized":
        return Response.json({ message: "Unauthorized: please sign in" }, { status: 401 });
      case "/no-content":
        return new Response(null, { status: 204 });
    }
    return new Response("?", { status: 404 });
  });
  base = `http://127.0.0.1:${server.addr.port}`;
});
after(() => server.shutdown());

describe("apiRequest", () => {
  it("sends JSON only when there is a body, and parses the answer", async () => {
    seen.length = 0;
    await expect(apiRequest("GET", `${base}/ok`)).resolves.toEqual({ hello: "world" });
    await apiRequest("POST", `${base}/ok`, { a: 1 });
    expect(seen[0]).toEqual({ method: "GET", type: null, body: "" });
    expect(seen[1]).toEqual({ method: "POST", type: "application/json", body: '{"a":1}' });
    await expect(apiRequest("DELETE", `${base}/no-content`)).resolves.toBeUndefined();
  });

  it("turns a failure into '{status}: {message}'", async () => {
    await expect(apiRequest("POST", `${base}/json-error`, {})).rejects.toThrow(
      "400: First name is required",
    );
    await expect(apiRequest("GET", `${base}/text-error`)).rejects.toThrow("502: plain failure");
    await expect(apiRequest("GET", `${base}/empty-error`)).rejects.toThrow(
      "503: Service Unavailable",
    );
  });
});

describe("handleUnauthorized", () => {
  it("tells the user and goes to /api/login after 500 ms, keeping the page", async () => {
    const assigned: string[] = [];
    const g = globalThis as unknown as { location?: unknown };
    const saved = g.location;
    g.location = {
      pathname: "/clients",
      search: "?filter=missing",
      assign: (url: string) => assigned.push(url),
    };
    try {
      const error = await apiRequest("GET", `${base}/unauthorized`).catch((e) => e);
      expect(handleUnauthorized(error)).toBe(true);
      expect(currentToast()).toMatchObject({
        title: "Unauthorized",
        description: "You are logged out. Logging in again...",
      });
      expect(assigned).toEqual([]);
      await new Promise((r) => setTimeout(r, UNAUTHORIZED_REDIRECT_MS + 50));
      expect(assigned).toEqual(["/api/login?returnTo=%2Fclients%3Ffilter%3Dmissing"]);
    } finally {
      g.location = saved;
      dismissToast();
    }
  });

  it("leaves other errors alone", () => {
    expect(handleUnauthorized(new Error("400: First name is required"))).toBe(false);
    expect(handleUnauthorized("Unauthorized")).toBe(false);
    expect(currentToast()).toBeNull();
  });
});
