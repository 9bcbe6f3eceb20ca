// One engine: the app's own heap and /metrics, not the database's.
import { describe, it } from "node:test";
import { expect } from "expect";
import { projectRoot } from "../helpers/process.ts";
import { rawRequest } from "../helpers/raw_http.ts";

const TOKEN = "metrics-memory-token-0123456789";
const MiB = 1024 * 1024;

/**
 * The test app in a child process started with --expose-gc, so its heap can
 * be measured after full collections (this process's own heap would mix the
 * test's garbage in).
 */
async function startProbe() {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--v8-flags=--expose-gc",
      "tests/helpers/heap_probe_app.ts",
      JSON.stringify({ METRICS_TOKEN: TOKEN }),
    ],
    cwd: projectRoot,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const input = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  async function nextLine(): Promise<string> {
    while (!pending.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the probe app ended");
      pending += value;
    }
    const i = pending.indexOf("\n");
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    return line;
  }
  const baseUrl = (await nextLine()).replace(/^listening /, "");
  return {
    baseUrl,
    async heapUsed(): Promise<number> {
      await input.write(new TextEncoder().encode("heap\n"));
      return Number((await nextLine()).replace(/^heap /, ""));
    },
    async close() {
      await input.close();
      await lines.cancel();
      await child.status;
    },
  };
}

/** `count` requests, a few at a time, each with a method and path of its own. */
async function sendDistinct(baseUrl: string, count: number, from = 0) {
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const i = next++;
      // Made-up methods (some of them long), standard ones the app does not
      // route, and the usual ones on paths nobody routes.
      const method = i % 50 === 0
        ? "TRACE"
        : i % 7 === 0
        ? "GET"
        : i % 5 === 0
        ? `X${"M".repeat(300)}${i}`
        : `R${String(i).padStart(5, "0")}`;
      const path = i % 3 === 0
        ? `/healthz/${i}`
        : i % 3 === 1
        ? `/api/quotes/${crypto.randomUUID()}?n=${i}`
        : `/no-such-page-${i}/${"p".repeat(i % 200)}`;
      const status = await rawRequest(baseUrl, method, path);
      if (method === "GET") expect([200, 302, 401, 404]).toContain(status);
      else if (method === "TRACE") expect(status).toBe(405);
      else expect(status).toBe(501);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function scrape(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return await res.text();
}

describe("request metrics under made-up methods and paths", () => {
  it("5,000 requests with distinct methods and paths: the heap grows under 10 MiB, /metrics stays under 200 KB", async () => {
    const probe = await startProbe();
    try {
      // Warm up first: code compiled, pools and caches filled, one scrape made.
      await sendDistinct(probe.baseUrl, 300, 100_000);
      await scrape(probe.baseUrl);
      const before = await probe.heapUsed();
      await sendDistinct(probe.baseUrl, 5_000);
      const text = await scrape(probe.baseUrl);
      const after = await probe.heapUsed();
      expect(new TextEncoder().encode(text).length).toBeLessThan(200 * 1024);
      expect(after - before).toBeLessThan(10 * MiB);
      // Labelled from fixed sets: the made-up methods are one "other", no raw path appears.
      expect(text).not.toMatch(/method="R0/);
      expect(text).not.toMatch(/no-such-page|\/healthz\/\d/);
      expect(text).toMatch(
        /^lensdesk_http_requests_total\{method="other",route="\(unmatched\)",status="501"\} \d+$/m,
      );
    } finally {
      await probe.close();
    }
  });
});
