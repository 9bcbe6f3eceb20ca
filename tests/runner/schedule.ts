// Which file runs when. Files start longest first, so that the last ones to
// start are short and the jobs end together: started in name order, a long
// file starting near the end (search_plan_test, ~1.5 min) kept one core
// busy alone at the end while the other had nothing left.
//
// A file's expected time is its wall time in the last run that ran it
// (<results>/durations.json, written by the runner), else the table below
// (for a clean clone, as CI runs), else a guess by folder.

/**
 * Seconds each of the slowest files took on a 2-core machine (wall time of
 * its own process, run beside another file), from durations.json; refresh
 * when a file's time changes much. Only the order they give matters.
 */
const KNOWN_SECONDS: Record<string, number> = {
  "tests/container/image_test.ts": 200,
  "tests/container/compose_test.ts": 120,
  "tests/api/backup_test.ts": 170,
  "tests/api/search_plan_test.ts": 95,
  "tests/api/process_test.ts": 60,
  "tests/api/route_table_test.ts": 55,
  "tests/api/fuzz_test.ts": 55,
  "tests/api/quote_expiry_counts_test.ts": 45,
  "tests/api/quote_pdf_test.ts": 35,
  "tests/api/hot_plan_test.ts": 32,
};

/** A file not measured yet: browser and container files are long, unit files short. */
function guess(file: string): number {
  if (file.startsWith("tests/container/")) return 60;
  if (file.startsWith("tests/e2e/")) return 30;
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

export function expectedSeconds(file: string, durations: Durations): number {
  return durations[file] ?? KNOWN_SECONDS[file] ?? guess(file);
}

/** Longest expected first; equal ones in name order. */
export function longestFirst(files: string[], durations: Durations): string[] {
  return [...files].sort((a, b) =>
    expectedSeconds(b, durations) - expectedSeconds(a, durations) || a.localeCompare(b)
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
