// What the bench holds the app to, and the check of a run against it. The
// pages are held as ratios to /healthz measured in the same run (one
// `SELECT 1` through the whole stack), so a slow or a busy machine moves both
// sides and the target still means the same thing.
import type { Throughput } from "./throughput.ts";
import type { SearchFigures } from "./searches.ts";

export const TARGETS = {
  /** The first page of the day and the one staff return to: counts and two lists. */
  dashboard: 0.30,
  /** 50 client cards with their last visit and quote count. */
  clients: 0.20,
  /** The quote builder's page, the heaviest page rendered on the server. */
  quotePage: 0.20,
  /** The builder's JSON read: one statement, so it should stay near the bare round trip. */
  quoteGet: 0.50,
  /** A search's p95 at full size: at most this many times its p95 at 1,000 clients … */
  searchGrowth: 1.5,
  /** … or at most this many ms (a search of a few ms may double and still be quick). */
  searchFloorMs: 15,
  /** With --huge, every search's p95: typing in the staff bar must still feel immediate. */
  hugeSearchP95Ms: 50,
  /** A quote's PDF, printed or e-mailed while the client waits. */
  pdfMsPerOption: 25,
  /** The server process after the load: the store's small machine runs other things too. */
  rssMiB: 200,
};

/** A search's p95 limit at full size, from its p95 on the 1,000-client store. */
export function searchLimitMs(huge: boolean, smallP95ms: number) {
  return huge
    ? TARGETS.hugeSearchP95Ms
    : Math.max(TARGETS.searchGrowth * smallP95ms, TARGETS.searchFloorMs);
}

export function searchRule(huge: boolean) {
  return huge
    ? `p95 ≤ ${TARGETS.hugeSearchP95Ms} ms`
    : `p95 ≤ ${TARGETS.searchGrowth} × p95 at 1k, or ≤ ${TARGETS.searchFloorMs} ms`;
}

export interface Target {
  name: string;
  value: number;
  min?: number;
  max?: number;
  /** One of the searches (printed one by one only when missed). */
  search?: boolean;
  met: boolean;
}

/** Every target of a run, met or not; the server's RSS only on a PostgreSQL server. */
export function checkTargets(run: {
  throughput: Throughput[];
  searches: SearchFigures[];
  pdfMsPerOption: number;
  rssMiB: number;
  engine: string;
}): Target[] {
  const ratio = (n: string) => run.throughput.find((t) => t.name === n)!.ratio;
  const targets: Omit<Target, "met">[] = [
    { name: "GET /dashboard ÷ /healthz", value: ratio("GET /dashboard"), min: TARGETS.dashboard },
    { name: "GET /clients ÷ /healthz", value: ratio("GET /clients"), min: TARGETS.clients },
    { name: "GET /quote/{id} ÷ /healthz", value: ratio("GET /quote/{id}"), min: TARGETS.quotePage },
    {
      name: "GET /api/quotes/{id} ÷ /healthz",
      value: ratio("GET /api/quotes/{id}"),
      min: TARGETS.quoteGet,
    },
    ...run.searches.map((s) => ({
      name: `search p95 ms: ${s.name}`,
      search: true,
      value: s.large.p95ms,
      max: s.limitMs,
    })),
    { name: "PDF ms per option (p50)", value: run.pdfMsPerOption, max: TARGETS.pdfMsPerOption },
    ...(run.engine === "server"
      ? [{ name: "server RSS after the load, MiB", value: run.rssMiB, max: TARGETS.rssMiB }]
      : []),
  ];
  return targets.map((t) => ({
    ...t,
    met: t.min !== undefined ? t.value >= t.min : t.value <= t.max!,
  }));
}
