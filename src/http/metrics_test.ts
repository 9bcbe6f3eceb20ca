import { describe, it } from "node:test";
import { expect } from "expect";
import { MAX_REQUEST_SERIES, methodLabel, Metrics, OVERFLOW_ROUTE } from "./metrics.ts";

const outbox = { pending: 0, due: 0, failed: 0, oldestDueSeconds: 0 };
const requestLines = (text: string) =>
  text.split("\n").filter((l) => l.startsWith("lensdesk_http_requests_total{"));

describe("Metrics", () => {
  it("labels methods from a fixed set", () => {
    expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map(methodLabel))
      .toEqual(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
    expect(methodLabel("R00001")).toBe("other");
    expect(methodLabel("get")).toBe("other");
    expect(methodLabel("TRACE")).toBe("other");
  });

  it(`keeps at most ${MAX_REQUEST_SERIES} series and folds the rest into one per method and status`, () => {
    const metrics = new Metrics();
    for (let i = 0; i < MAX_REQUEST_SERIES + 300; i++) {
      metrics.observeRequest(i % 2 ? "GET" : `M${i}`, `/route/${i}`, 404, 0.001);
    }
    const lines = requestLines(metrics.render({ outbox }));
    expect(lines.length).toBeLessThanOrEqual(MAX_REQUEST_SERIES + 2);
    const folded = lines.filter((l) => l.includes(`route="${OVERFLOW_ROUTE}"`));
    expect(folded.map((l) => l.replace(/ \d+$/, "")).sort()).toEqual([
      `lensdesk_http_requests_total{method="GET",route="${OVERFLOW_ROUTE}",status="404"}`,
      `lensdesk_http_requests_total{method="other",route="${OVERFLOW_ROUTE}",status="404"}`,
    ]);
    // Every request is still counted.
    const total = lines.reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
    expect(total).toBe(MAX_REQUEST_SERIES + 300);
  });
});
