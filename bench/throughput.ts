// Pages under load: wrk with CONNECTIONS connections per page, signed in, as a
// ratio to /healthz measured on the same server in the same run; the builder
// save at SAVERS connections, against /healthz at as many.
import { runWrk, type WrkResult } from "./wrk.ts";
import { CONNECTIONS, LOAD_SECONDS, SAVERS } from "./mode.ts";
import { cookie, expectOk, headers } from "./session.ts";

export interface Throughput {
  name: string;
  /** Connections: the ratio is to /healthz at the same number. */
  connections: number;
  rps: number;
  p50ms: number;
  p95ms: number;
  ratio: number;
  errors: number;
}

const figure = (name: string, connections: number, result: WrkResult, healthz: WrkResult) => ({
  name,
  connections,
  rps: result.rps,
  p50ms: result.p50ms,
  p95ms: result.p95ms,
  ratio: result.rps / healthz.rps,
  errors: result.errors,
});

/**
 * /healthz, the pages and the builder save on `base`. `quoteId` is the quote
 * the pages show; `savers` are SAVERS other quotes, one per saving thread.
 */
export async function measureThroughput(
  base: string,
  quoteId: string,
  savers: string[],
): Promise<Throughput[]> {
  const out: Throughput[] = [];
  await runWrk(`${base}/healthz`, { connections: 4, threads: 2, seconds: 1 });
  const healthz = await runWrk(`${base}/healthz`, {
    connections: CONNECTIONS,
    threads: 2,
    seconds: LOAD_SECONDS,
  });
  out.push(figure("GET /healthz", CONNECTIONS, healthz, healthz));
  const pages = [
    ["GET /dashboard", "/dashboard"],
    ["GET /clients", "/clients"],
    ["GET /quote/{id}", `/quote/${quoteId}`],
    ["GET /api/quotes/{id}", `/api/quotes/${quoteId}`],
  ];
  for (const [name, path] of pages) {
    await expectOk(base, path);
    // A short warm-up, so the first compilations are not part of the figure.
    await runWrk(base + path, { connections: 4, threads: 2, seconds: 1, headers });
    const result = await runWrk(base + path, {
      connections: CONNECTIONS,
      threads: 2,
      seconds: LOAD_SECONDS,
      headers,
    });
    out.push(figure(name, CONNECTIONS, result, healthz));
  }
  out.push(await measureSaves(base, savers));
  return out;
}

/** Builder saves, each wrk thread on its own quote, against /healthz at as many connections. */
async function measureSaves(base: string, savers: string[]): Promise<Throughput> {
  const saveEnv: Record<string, string> = { BENCH_COOKIE: cookie, BENCH_ORIGIN: base };
  for (const [i, id] of savers.entries()) {
    const slot = i + 1;
    const bundle = JSON.parse(await expectOk(base, `/api/quotes/${id}`));
    const body = JSON.stringify({
      version: "__V__",
      opticianName: bundle.quote.opticianName || "Bench",
      internalNotes: bundle.quote.internalNotes,
      options: bundle.options.map((o: { frameMeasurements: { segOc: string } }) => ({
        ...o,
        segOc: o.frameMeasurements.segOc,
      })),
    }).replace('"__V__"', "__VERSION__");
    // One save by hand first: the body is one the API accepts, not a string of 400s.
    await expectOk(base, `/api/quotes/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: body.replace("__VERSION__", String(bundle.quote.version)),
    });
    saveEnv[`BENCH_SAVE_ID_${slot}`] = id;
    saveEnv[`BENCH_SAVE_BODY_${slot}`] = body;
    saveEnv[`BENCH_SAVE_VERSION_${slot}`] = String(bundle.quote.version + 1);
  }
  const healthz = await runWrk(`${base}/healthz`, {
    connections: SAVERS,
    threads: SAVERS,
    seconds: LOAD_SECONDS,
  });
  const saves = await runWrk(`${base}/api/quotes/${savers[0]}`, {
    connections: SAVERS,
    threads: SAVERS,
    seconds: LOAD_SECONDS,
    kind: "save",
    env: saveEnv,
  });
  return figure("PUT /api/quotes/{id} (builder save)", SAVERS, saves, healthz);
}
