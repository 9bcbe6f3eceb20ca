// Which file runs when. Files start longest first, so that the last ones to
// start are short and the jobs end together: in name order, a long file
// that starts near the end keeps one core busy alone while the other has
// nothing left (the container image test after every API test, print_pages
// and search among the browser tests).
//
// A file's expected time is its wall time in the last run that ran it on the
// same engine (<results>/durations-<engine>.json, written by the runner),
// else the tables below (for a clean clone, as CI runs), else a guess by
// folder. Only the order they give matters.

/** The database the files run on, which changes their times: TEST_DATABASE_URL's server, else PGlite. */
export type Engine = "embedded" | "server";

/** The engines' names in the log. */
export const ENGINE_NAMES: Record<Engine, string> = { embedded: "PGlite", server: "server" };

/** One test file on one engine, or a batch of short files (runner.ts, BATCHES) in one process. */
export interface TestRun {
  /** The file, or the batch's name. */
  file: string;
  engine: Engine;
  /** A batch's files, run by one `deno test` (absent for a single file). */
  files?: string[];
}

/**
 * Seconds the slowest files took, each in its own process beside another, on
 * a 2-core machine shared with other work (durations-<engine>.json); refresh
 * when a file's time changes much. The container tests take 30 s with podman's
 * layers cached and minutes without: they are set to start first.
 */
const KNOWN_SECONDS: Record<Engine, Record<string, number>> = {
  embedded: {
    "tests/container/compose_test.ts": 150,
    "tests/container/image_test.ts": 150,
    "tests/api/backup_restore_checks_test.ts": 140,
    "tests/faults/embedded_faults_test.ts": 65,
    "tests/api/backup_test.ts": 58,
    "tests/faults/server_faults_test.ts": 25,
    "src/pdf/pdf_pool_test.ts": 22,
    "tests/e2e/journey_test.ts": 17,
  },
  server: {
    "tests/e2e/a11y_test.ts": 85,
    "tests/api/backup_test.ts": 70,
    "tests/e2e/floor_phones_and_controls_test.ts": 65,
    "tests/api/bench_quick_test.ts": 60,
    "tests/api/backup_restore_checks_test.ts": 60,
    "tests/e2e/print_pages_test.ts": 42,
    "tests/e2e/offline_test.ts": 37,
    "tests/e2e/admin_settings_test.ts": 36,
    "tests/e2e/orders_test.ts": 35,
    "tests/api/search_plan_test.ts": 32,
    "tests/api/process_test.ts": 17,
    "tests/e2e/screenshots_test.ts": 33,
    "tests/e2e/floor_wide_logo_test.ts": 33,
    "tests/e2e/kiosk_test.ts": 33,
    "tests/e2e/floor_builder_tablet_test.ts": 32,
    "tests/api/first_start_test.ts": 18,
    "tests/e2e/history_reports_test.ts": 31,
    "tests/e2e/floor_layout_test.ts": 31,
    "tests/e2e/floor_focus_and_print_test.ts": 30,
  },
};

/** A file not measured yet: container and browser files are long, unit files short. */
function guess(file: string): number {
  if (file.startsWith("tests/container/")) return 60;
  if (file.startsWith("tests/e2e/")) return 25;
  if (file.startsWith("tests/api/")) return 10;
  return 1;
}

export type Durations = Record<string, number>;

export function readDurations(path: string): Durations {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return {};
  }
}

/** The last times kept, updated with this run's (a run of a few files keeps the others'). */
export function writeDurations(path: string, old: Durations, measured: Durations) {
  const all = { ...old, ...measured };
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
  Deno.writeTextFileSync(path, JSON.stringify(sorted, null, 2) + "\n");
}

export function expectedSeconds(file: string, durations: Durations, engine: Engine): number {
  return durations[file] ?? KNOWN_SECONDS[engine][file] ?? guess(file);
}

/** Longest expected first (each on its engine's times); equal ones in name order. */
export function longestFirst(
  runs: TestRun[],
  durations: Record<Engine, Durations>,
): TestRun[] {
  const expected = (r: TestRun): number => {
    const known = durations[r.engine];
    if (!r.files) return expectedSeconds(r.file, known, r.engine);
    // A batch: its own last time, else the sum of its files'.
    return known[r.file] ?? r.files.reduce((s, f) => s + expectedSeconds(f, known, r.engine), 0);
  };
  return [...runs].sort((a, b) =>
    expected(b) - expected(a) || a.file.localeCompare(b.file) || a.engine.localeCompare(b.engine)
  );
}

/** Runs `work` on every item, at most `jobs` at once, taking them in order. */
export async function runPool<T>(
  items: T[],
  jobs: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
}
