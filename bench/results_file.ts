// Where a run's results go: BENCH_RESULTS, or else a new file in
// bench/results/ named for the run's scale and day. A second run of a scale
// on the same day gets "-2", and so on, so no run overwrites another.
import { join } from "node:path";

export const RESULTS_DIR = new URL("./results/", import.meta.url).pathname;

/** The first free `<scale>-<YYYY-MM-DD>[-n].json` in `dir`. */
export async function newResultsPath(scale: string, at: Date, dir = RESULTS_DIR) {
  const day = at.toISOString().slice(0, 10);
  await Deno.mkdir(dir, { recursive: true });
  for (let n = 1;; n++) {
    const path = join(dir, `${scale}-${day}${n === 1 ? "" : `-${n}`}.json`);
    try {
      await Deno.lstat(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return path;
      throw error;
    }
  }
}
