// `deno task bench --quick` keeps working: a 1,000-client store, the real
// server under wrk for a second per figure, every figure in the results file.
// No target is checked here (the full bench does that); only that the run
// completes, every request answered, and the results are whole.
import { describe, it } from "node:test";
import { expect } from "expect";
import { createTestDatabase, ONCE_ON_SERVER } from "../helpers/database.ts";
import { newResultsPath } from "../../bench/results_file.ts";

describe("the bench's results file", () => {
  it("is named for the run's scale and day, and a second run that day does not overwrite the first", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const at = new Date("2026-03-04T23:59:00Z");
      const first = await newResultsPath("100k", at, dir);
      expect(first).toBe(`${dir}/100k-2026-03-04.json`);
      await Deno.writeTextFile(first, "{}");
      expect(await newResultsPath("100k", at, dir)).toBe(`${dir}/100k-2026-03-04-2.json`);
      await Deno.writeTextFile(`${dir}/100k-2026-03-04-2.json`, "{}");
      expect(await newResultsPath("100k", at, dir)).toBe(`${dir}/100k-2026-03-04-3.json`);
      // Another scale, or another day, starts its own count.
      expect(await newResultsPath("1m", at, dir)).toBe(`${dir}/1m-2026-03-04.json`);
      expect(await newResultsPath("100k", new Date("2026-03-05T00:00:00Z"), dir))
        .toBe(`${dir}/100k-2026-03-05.json`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

describe("deno task bench --quick", { skip: ONCE_ON_SERVER }, () => {
  it("runs end to end and writes every figure", async () => {
    // A temporary file, never bench/results/: a test run is not a run of the bench worth keeping.
    const results = await Deno.makeTempFile({ suffix: ".json" });
    try {
      const env: Record<string, string> = { BENCH_RESULTS: results };
      // On the suite's server: the bench fills its store there.
      const db = await createTestDatabase();
      env.BENCH_DATABASE_URL = db.url;
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", "bench/bench.ts", "--quick"],
        cwd: new URL("../../", import.meta.url).pathname,
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      await db.drop();
      const text = new TextDecoder().decode(out.stdout);
      if (out.code !== 0) {
        const err = new TextDecoder().decode(out.stderr);
        throw new Error(
          `bench --quick exited ${out.code}:\n${text.slice(-3000)}\n${err.slice(-3000)}`,
        );
      }
      expect(text).toContain("GET /dashboard");
      const r = JSON.parse(await Deno.readTextFile(results));
      expect(r.quick).toBe(true);
      expect(r.engine).toBe("server");
      expect(r.store).toMatchObject({ clients: 1000, quotes: 3000, options: 6000, items: 18000 });
      // Each step of the fill timed, and the whole run.
      for (const step of ["rows", "indexes", "vacuum"]) {
        expect(r.store.fill.small[step]).toBeGreaterThan(0);
      }
      expect(r.runSeconds).toBeGreaterThan(r.store.fill.small.seconds);
      expect(r.errors).toBe(0);
      expect(r.throughput.map((t: { name: string }) => t.name)).toEqual([
        "GET /healthz",
        "GET /dashboard",
        "GET /clients",
        "GET /quote/{id}",
        "GET /api/quotes/{id}",
        "PUT /api/quotes/{id} (builder save)",
      ]);
      // Every path answered 2xx before its load (the bench checks), and none failed under it;
      // how many completed in a second or two depends on the machine.
      for (const t of r.throughput) expect(t.errors).toBe(0);
      // Every search the staff can run, with a word of every query family each.
      const kinds = [
        "staff bar",
        "client search",
        "client list",
        "quote list",
        "quote list, one store",
      ];
      const families = [
        "rare word",
        "common: example",
        "common: syllable",
        "phone, 3 digits",
        "phone, 4 digits",
        "phone, whole",
        "e-mail fragment",
        "quote number",
        "letters + digits",
      ];
      expect(r.searches.map((s: { kind: string; family: string }) => [s.kind, s.family]))
        .toEqual(kinds.flatMap((k) => families.map((f) => [k, f])));
      // --quick times each search in one round; the full bench's figures are medians of three.
      for (const s of r.searches) {
        expect(s.word.length).toBeGreaterThan(2);
        expect(s.limitMs).toBeGreaterThanOrEqual(15);
        for (const size of [s.small, s.large]) {
          expect(size.rounds.length).toBe(1);
          expect([size.p50ms, size.p95ms]).toEqual([size.rounds[0].p50ms, size.rounds[0].p95ms]);
          expect(size.errors).toBe(0);
        }
      }
      expect(r.pdf.optionsPerQuote).toBe(2);
      expect(r.pdf.msPerOption).toBeGreaterThan(0);
      expect(r.email.p50ms).toBeGreaterThan(0);
      expect(r.rssMiB).toBeGreaterThan(0);
      expect(r.rssAfterPagesMiB).toBeGreaterThan(0);
      expect(r.rssPeakMiB).toBeGreaterThanOrEqual(r.rssMiB);
      // The PDFs were made by one renderer process, still alive and measured apart.
      expect(r.renderer.processes).toBe(1);
      expect(r.renderer.anonymousMiB).toBeGreaterThan(0);
      expect(r.renderer.rssMiB).toBeGreaterThan(r.renderer.anonymousMiB);
      expect(r.jsPerPage.find((j: { page: string }) => j.page === "/dashboard").br)
        .toBeGreaterThan(0);
    } finally {
      await Deno.remove(results);
    }
  });
});
