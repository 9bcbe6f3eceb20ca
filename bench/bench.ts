// `deno task bench`: Lensdesk at store scale, measured as ratios in one run.
//
// A generated store of BENCH_CLIENTS clients (default 100,000; 3 quotes each
// with options and items) on a PostgreSQL server (BENCH_DATABASE_URL, an
// empty database) or else the embedded engine in a temporary directory
// (fill.ts). The real server (main.ts) runs as its own process (server.ts)
// and is driven over HTTP by wrk (wrk.ts). Throughput is a ratio to /healthz
// measured in the same run (throughput.ts), searches are timed on a second
// store of 1,000 clients and on the full one, the two taking turns
// (searches.ts), then the PDF and e-mail (pdf.ts) and the JavaScript each
// page loads (js_size.ts), and the targets (targets.ts) are checked: the exit
// code is 1 when one is missed. A run at 100,000 clients takes about 15
// minutes: the fills, 7 of searches, 2 of load, the PDFs.
//
// `--quick`: 1,000 clients and two seconds of load per figure, each search
// timed once for both sizes (they are one store), to keep the
// bench working (tests/api/bench_quick_test.ts); its figures are printed and
// written but no target is checked (at 1,000 clients there is no growth to
// judge, and so little load on a shared machine is noise).
//
// `--huge`: 1,000,000 clients (3,000,000 quotes) on a PostgreSQL server
// (BENCH_DATABASE_URL is then required; BENCH_CLIENTS is ignored), and every
// search must answer within TARGETS.hugeSearchP95Ms at p95 instead of growing
// little from the 1,000-client store.
//
// Results: a table on stdout and a JSON file, BENCH_RESULTS or else
// bench/results/<scale>-<YYYY-MM-DD>.json (results_file.ts; docs/performance.md).
import { sql } from "kysely";
import { join } from "node:path";
import { readManifest } from "../src/assets/manifest.ts";
import { CLIENTS, DATABASE_URL, engine, HUGE, QUICK, SAVERS, SCALE, SMALL } from "./mode.ts";
import {
  dropSmallDatabase,
  fill,
  makeSmallDatabase,
  openStore,
  prepare,
  type Store,
} from "./fill.ts";
import { startServer } from "./server.ts";
import { timeSearches } from "./searches.ts";
import { measureThroughput } from "./throughput.ts";
import { measureMemory, measurePdf } from "./pdf.ts";
import { measureJsPerPage } from "./js_size.ts";
import { checkTargets, searchRule } from "./targets.ts";
import { printFigures, printTargets, type Results } from "./report.ts";
import { newResultsPath } from "./results_file.ts";
import { removeWrkScripts } from "./wrk.ts";
import { rssOf } from "./proc.ts";

const startedAt = performance.now();
const dataDir = await Deno.makeTempDir({ prefix: "lensdesk-bench-" });
const say = (line: string) => console.error(line);
if (HUGE && !DATABASE_URL) {
  throw new Error("--huge needs a PostgreSQL server: set BENCH_DATABASE_URL to an empty database");
}

// ---- the stores (fill.ts) ----

const large: Store = { url: DATABASE_URL, dir: dataDir };
/** Made once the full store is known to be empty, so a refused run leaves nothing behind. */
let smallStore: Store = large;

say(`Store: ${engine} database, ${CLIENTS.toLocaleString("en-US")} clients in the end`);
await prepare(large);
if (CLIENTS > SMALL) {
  smallStore = {
    url: DATABASE_URL && await makeSmallDatabase(DATABASE_URL, dataDir),
    dir: join(dataDir, "small"),
  };
  await prepare(smallStore);
}
const fillSmall = await fill(smallStore, SMALL);
const fillLarge = smallStore === large ? fillSmall : await fill(large, CLIENTS);

const store = await openStore(large);
const counts = await sql<{ quotes: string; options: string; items: string }>`select
  (select count(*) from quotes) quotes, (select count(*) from quote_options) options,
  (select count(*) from option_items) items`.execute(store.db);
const picked = await store.db.selectFrom("quotes").select("id").where("status", "=", "ACTIVE")
  .where("expiresAt", ">", new Date()).orderBy("createdAt", "desc").limit(SAVERS + 1).execute();
await store.close();
if (picked.length < SAVERS + 1) throw new Error("The store has too few active quotes.");
const quoteId = picked[0].id;

// ---- the searches (searches.ts) ----

// Both servers freshly started, before any other load: the sizes are then
// measured in the same state, so the ratio compares the store sizes, not a
// server that has just taken the page load with one that has not.
const server = await startServer(large);
const base = server.base;
const smallServer = smallStore === large ? server : await startServer(smallStore);
say(`Searches at ${SMALL.toLocaleString("en-US")} and ${CLIENTS.toLocaleString("en-US")} clients`);
const searches = await timeSearches({ small: smallServer.base, large: base }, HUGE);
if (smallServer !== server) await smallServer.stop();
await dropSmallDatabase(smallStore, large);

// ---- load, PDF, memory, JavaScript ----

say("Load at full size");
const throughput = await measureThroughput(base, quoteId, picked.slice(1).map((q) => q.id));
const rssAfterPagesMiB = await rssOf(server.pid);
say("PDF and e-mail");
const { pdf, email } = await measurePdf(base, quoteId);
const memory = await measureMemory(server.pid);
const manifest = await readManifest();
const jsPerPage = await measureJsPerPage(base, quoteId);
await server.stop();
await removeWrkScripts();
await Deno.remove(dataDir, { recursive: true });

// ---- the file, the table, the targets ----

const errors = [
  ...throughput,
  ...searches.map((s) => s.small),
  // One server timed for both sizes (a quick run): its failures are counted once.
  ...(smallServer === server ? [] : searches.map((s) => s.large)),
].reduce((n, r) => n + r.errors, 0);
const targets = checkTargets({
  throughput,
  searches,
  pdfMsPerOption: pdf.msPerOption,
  rssMiB: memory.rssMiB,
  engine,
});
const at = new Date();
const results: Results = {
  at: at.toISOString(),
  quick: QUICK,
  huge: HUGE,
  engine,
  store: {
    clients: CLIENTS,
    quotes: Number(counts.rows[0].quotes),
    options: Number(counts.rows[0].options),
    items: Number(counts.rows[0].items),
    fillSeconds: { small: fillSmall.seconds, large: fillLarge.seconds },
    fill: { small: fillSmall, large: fillLarge },
  },
  machine: { cpus: navigator.hardwareConcurrency, loadAverage: Deno.loadavg() },
  throughput,
  searches,
  pdf,
  email,
  rssMiB: memory.rssMiB,
  rssAfterPagesMiB,
  rssPeakMiB: memory.rssPeakMiB,
  renderer: memory.renderer,
  jsPerPage,
  entry: manifest.entry,
  errors,
  searchTarget: searchRule(HUGE),
  targets: QUICK ? [] : targets,
  runSeconds: (performance.now() - startedAt) / 1000,
};
const path = Deno.env.get("BENCH_RESULTS") ?? await newResultsPath(SCALE, at);
await Deno.writeTextFile(path, JSON.stringify(results, null, 2) + "\n");

printFigures(results);
if (QUICK) {
  console.log(`\nQuick run: no targets checked. Results in ${path}`);
  Deno.exit(errors ? 1 : 0);
}
const missed = printTargets(results, path);
Deno.exit(missed || errors ? 1 : 0);
