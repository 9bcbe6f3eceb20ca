// How big a run is and how long it loads each figure: the full bench,
// `--quick` or `--huge` (see bench.ts), read once from the command line and
// the environment.

export const QUICK = Deno.args.includes("--quick");
export const HUGE = !QUICK && Deno.args.includes("--huge");
export const CLIENTS = QUICK
  ? 1_000
  : HUGE
  ? 1_000_000
  : Number(Deno.env.get("BENCH_CLIENTS") ?? 100_000);
/** The store the searches are compared with. */
export const SMALL = Math.min(1_000, CLIENTS);
export const DATABASE_URL = Deno.env.get("BENCH_DATABASE_URL");
export const engine = DATABASE_URL ? "server" : "embedded";
/** Seconds of load per throughput figure, and per search latency figure. */
export const LOAD_SECONDS = QUICK ? 1 : 8;
/** 45 searches (5 kinds × 9 query families) × 2 sizes × SEARCH_ROUNDS windows: 9 minutes in all. */
export const SEARCH_SECONDS = QUICK ? 1 : 2;
/** Windows of SEARCH_SECONDS per search and store size (see timeSearches). */
export const SEARCH_ROUNDS = QUICK ? 1 : 3;
/**
 * Search windows timed at once. One in a real run: a window alone on the
 * machine times the search, not its neighbours. Six in --quick, whose
 * figures are not judged: its 45 windows take 8 s instead of 45 (a
 * window of one connection keeps a core busy, six keep the machine busy).
 */
export const SEARCH_WINDOWS_AT_ONCE = QUICK ? 6 : 1;
/** Concurrent connections of the page loads. */
export const CONNECTIONS = 16;
/** Builder saves: one connection and one quote per wrk thread. */
export const SAVERS = 4;
/** Untimed PDFs before the timed ones, after the first (see pdf.ts). */
export const PDF_WARMUP = QUICK ? 1 : 5;
/** Timed PDFs and e-mails. */
export const PDF_SAMPLES = QUICK ? 3 : 10;
/**
 * The stores of the chain the bench fills, the clients and their quotes
 * spread evenly among them (bench/store.ts): the install's own store and
 * S02 … S20. The bench's owner works in the first by code, MAIN.
 */
export const STORES = 20;
/** The client whose name and phone the searches look for: present at 1,000 and at full size. */
export const SEARCHED = 777;

/** The run's scale as results files are named: quick, 100k, 1m, or the client count. */
export const SCALE = QUICK
  ? "quick"
  : CLIENTS === 100_000
  ? "100k"
  : CLIENTS === 1_000_000
  ? "1m"
  : String(CLIENTS);
