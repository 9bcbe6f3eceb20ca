// The test suite's runner, what `deno task test` runs after the build.
//
// `deno test --parallel` runs every file in one process: one test that never
// settles (an open socket, a promise nobody resolves) holds that process, and
// CI with it, until CI's own limit, with nothing reported. Here each file is
// its own `deno test` process with a time limit; at the limit its whole
// process tree is killed and the file fails, named, with the last test it had
// started. The files are type-checked by one `deno check`, run beside the
// first files (each process skips the check), and a check that fails fails
// the run.
//
// One run may cover both engines: the files of LENSDESK_TEST_PATHS run on
// TEST_DATABASE_URL's server when it is set, and those of
// LENSDESK_TEST_EMBEDDED_PATHS on PGlite whatever it says. CI runs both in
// one pool, so neither engine's last files leave a core idle while the
// other's wait, and the check runs once.
//
// Usage: deno run --allow-all tests/runner.ts [path...]
//   paths: test files or folders; none given, LENSDESK_TEST_PATHS (split on
//   spaces), else the whole project (less deno.json's "test.exclude").
// Environment:
//   TEST_DATABASE_URL             a PostgreSQL server for the files above (else PGlite)
//   LENSDESK_TEST_EMBEDDED_PATHS  files or folders run on PGlite besides (split on spaces)
//   LENSDESK_TEST_JOBS            files run at once (else DENO_JOBS, else the CPU count)
//   LENSDESK_TEST_TIMEOUT_S       a file's time limit in seconds (600; FILE_LIMITS_S may raise one)
//   LENSDESK_TEST_RESULTS         where junit.xml, the per-file reports and durations-*.json go
//                                 (.test-results)
// Exits 1 if the check failed or any file failed, timed out or crashed.
import { join } from "node:path";
import { findTestFiles, oneEngine } from "./runner/discover.ts";
import { runLimited, running } from "./runner/limited_run.ts";
import { failureReport, mergeReports } from "./runner/junit.ts";
import { failureSection } from "./runner/deno_output.ts";
import { type FileResult, formatSeconds, runTestFile } from "./runner/run_file.ts";
import {
  type Engine,
  ENGINE_NAMES,
  expectedSeconds,
  longestFirst,
  readDurations,
  runPool,
  type TestRun,
  writeDurations,
} from "./runner/schedule.ts";
import { killTree } from "./runner/process_tree.ts";

/**
 * Files that legitimately need more than the default limit. The container
 * tests build images with debootstrap: 4 min 14 s on a 2-core machine without
 * podman's cache (docs/development.md), and up to ~1.8x that on a loaded one.
 */
const FILE_LIMITS_S: Record<string, number> = {
  "tests/container/image_test.ts": 20 * 60,
  "tests/container/compose_test.ts": 20 * 60,
};

/**
 * Short files that share one `deno test` process, in batches of at most
 * `files`: a process's start and its modules cost 0.4-1.5 s of CPU (PGlite's
 * more), as much as many of these files take (46 short API files on the
 * server: 173 s of CPU one process each, 151 s in one). A file expected to
 * take longer than BATCH_MAX_S (its last time, else schedule.ts's tables)
 * keeps a process of its own.
 */
const BATCHES = [
  { name: "unit files of src/ and tests/unit/", folders: ["src/", "tests/unit/"], files: 100 },
  { name: "short files of tests/api/", folders: ["tests/api/"], files: 10 },
];
const BATCH_MAX_S = 10;

/** The lines of a failing file's errors reprinted at the end, where a log's tail shows them. */
const FAILURE_LINES = 80;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const env = (name: string) => Deno.env.get(name)?.trim() || undefined;
const positive = (text: string | undefined) => {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
};

const root = Deno.cwd();
const results = env("LENSDESK_TEST_RESULTS") ?? ".test-results";
const jobs = Math.floor(
  positive(env("LENSDESK_TEST_JOBS")) ?? positive(env("DENO_JOBS")) ??
    navigator.hardwareConcurrency,
);
const defaultLimit = positive(env("LENSDESK_TEST_TIMEOUT_S")) ?? 600;
const limitOf = (file: string) => FILE_LIMITS_S[file] ?? defaultLimit;
/**
 * The one type check of every file: not a test file's limit, which may be a
 * few seconds (the runner's own test), while checking takes longer on a busy
 * machine; still bounded, so a hung checker cannot hold CI.
 */
const CHECK_LIMIT_S = Math.max(defaultLimit, 600);
const paths = Deno.args.length > 0 ? Deno.args : env("LENSDESK_TEST_PATHS")?.split(/\s+/) ?? ["."];
const embeddedPaths = env("LENSDESK_TEST_EMBEDDED_PATHS")?.split(/\s+/) ?? [];

// Ctrl-C or CI's SIGTERM reaches only this process: the files run in sessions
// of their own, so their trees are ended here.
for (const [sig, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  Deno.addSignalListener(sig, () => {
    for (const pid of running) killTree(pid);
    console.log(`\n=== ${sig}: the running test files were killed`);
    Deno.exit(code);
  });
}

const started = performance.now();
const junitPath = join(results, "junit.xml");
const perFile = join(results, "files");
await Deno.remove(perFile, { recursive: true }).catch(() => {});
await Deno.remove(junitPath).catch(() => {});
await Deno.mkdir(perFile, { recursive: true });

// The engine of the given paths: TEST_DATABASE_URL's server, else PGlite.
const mainEngine: Engine = env("TEST_DATABASE_URL") ? "server" : "embedded";
const mainFiles = findTestFiles(paths, root);
const serverFiles = new Set(mainEngine === "server" ? mainFiles : []);
const seen = new Set<string>();
const runs: TestRun[] = [
  ...mainFiles.map((file) => ({ file, engine: mainEngine })),
  ...(embeddedPaths.length ? findTestFiles(embeddedPaths, root) : [])
    .map((file) => ({ file, engine: "embedded" as const })),
].filter((run) => {
  const key = `${run.engine} ${run.file}`;
  if (seen.has(key)) return false;
  seen.add(key);
  // A file whose subject does not change with the engine runs once, on the
  // server, when the run has both (alone on PGlite, it runs there).
  return !(run.engine === "embedded" && serverFiles.has(run.file) && oneEngine(run.file));
});
if (runs.length === 0) {
  console.log(`=== no test files under ${[...paths, ...embeddedPaths].join(" ")}`);
  Deno.exit(1);
}
const bothEngines = new Set(runs.map((r) => r.engine)).size > 1;
const files = [...new Set(runs.map((r) => r.file))];

/** A run's name in the log and the report: the file, and its engine when the run has both. */
const nameOf = (run: TestRun) =>
  bothEngines ? `${run.file} [${ENGINE_NAMES[run.engine]}]` : run.file;
const durationsPath = (engine: Engine) => join(results, `durations-${engine}.json`);
const durations = {
  embedded: readDurations(durationsPath("embedded")),
  server: readDurations(durationsPath("server")),
};

// The short files of each batch's folders run together, per engine, in name order.
for (const batch of BATCHES) {
  for (const engine of ["embedded", "server"] as const) {
    const short = runs.filter((r) =>
      r.engine === engine && batch.folders.some((f) => r.file.startsWith(f)) &&
      expectedSeconds(r.file, durations[engine], engine) <= BATCH_MAX_S
    ).sort((a, b) => a.file.localeCompare(b.file));
    if (short.length < 2) continue;
    for (const r of short) runs.splice(runs.indexOf(r), 1);
    const count = Math.ceil(short.length / batch.files);
    for (let i = 0; i < count; i++) {
      // As many in each, in name order: the same batches run after run while no file is added.
      const files = short.filter((_, j) => j % count === i).map((r) => r.file);
      const name = count === 1 ? batch.name : `${batch.name} (${i + 1} of ${count})`;
      runs.push({ file: name, engine, files });
    }
  }
}

// The environment of a PGlite run in a server run: without the server's URL.
const embeddedEnv = Object.fromEntries(
  Object.entries(Deno.env.toObject()).filter(([name]) => name !== "TEST_DATABASE_URL"),
);

console.log(
  `=== ${count(runs.length, "test file run")} (${count(files.length, "file")}), ` +
    `${Math.min(jobs, runs.length + 1)} at a time, ${formatSeconds(defaultLimit)} limit each, ` +
    `beside one type check`,
);

type Item = { check: true } | { check?: false; run: TestRun };
const items: Item[] = [
  { check: true },
  ...longestFirst(runs, durations).map((run) => ({ run })),
];
const done: Array<FileResult & TestRun> = [];
let checkFailure: { why: string; output: string; seconds: number } | undefined;

await runPool(items, jobs, async (item) => {
  if (item.check) {
    const check = await runLimited(Deno.execPath(), ["check", ...files], CHECK_LIMIT_S * 1000);
    if (check.code === 0) {
      console.log(
        `=== ok deno check of ${count(files.length, "file")} (${formatSeconds(check.seconds)})\n`,
      );
      return;
    }
    const why = check.timedOut ? "timed out" : `failed (exit code ${check.code})`;
    checkFailure = { why, output: check.output, seconds: check.seconds };
    console.log(check.output.trimEnd());
    console.log(`=== FAILED deno check of ${count(files.length, "file")}: ${why}\n`);
    return;
  }
  const { run } = item;
  const name = nameOf(run);
  const report = join(perFile, `${run.engine}__${run.file.replaceAll("/", "__")}.xml`);
  const result = await runTestFile(run.file, report, limitOf(run.file), {
    name,
    files: run.files,
    nameOf: (file) => nameOf({ engine: run.engine, file }),
    env: run.engine === "embedded" && mainEngine === "server" ? embeddedEnv : undefined,
  });
  done.push({ ...result, ...run });
  // Printed whole when the file ends, so files running together do not mix.
  console.log(result.output.trimEnd());
  console.log(`=== ${result.line}\n`);
});

const wall = (performance.now() - started) / 1000;
// In name order, whatever order the files ended in, so two runs' reports compare line by line.
const byName = [...done].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
const reports = byName.map((r) => r.report);
if (checkFailure) {
  reports.unshift(
    failureReport(
      "deno check",
      `deno check ${checkFailure.why}`,
      checkFailure.seconds,
      checkFailure.output,
    ),
  );
}
await Deno.writeTextFile(junitPath, mergeReports(reports, wall));
for (const engine of ["embedded", "server"] as const) {
  const measured = done.filter((r) => r.engine === engine);
  if (measured.length === 0) continue;
  writeDurations(
    durationsPath(engine),
    durations[engine],
    Object.fromEntries(measured.map((r) => [r.file, Math.round(r.seconds * 10) / 10])),
  );
}

const verdicts = (v: FileResult["verdict"]) => done.filter((r) => r.verdict === v).length;
const bad = done.filter((r) => r.verdict !== "ok");
// What failed, again at the end: a long log is often read from its tail only.
for (const r of bad) {
  console.log(`=== what ${nameOf(r)} said of its failure:`);
  console.log(failureSection(r.output, FAILURE_LINES));
  console.log("");
}
console.log(
  `=== ${count(done.length, "file")} in ${formatSeconds(wall)}: ${verdicts("ok")} passed, ` +
    `${verdicts("failed")} failed, ${verdicts("timeout")} timed out, ${
      verdicts("crashed")
    } crashed`,
);
if (checkFailure) console.log(`=== FAILED deno check: ${checkFailure.why}`);
for (const r of bad) console.log(`=== ${r.line}`);
if (bothEngines) {
  for (const engine of ["embedded", "server"] as const) {
    const mine = done.filter((r) => r.engine === engine);
    const total = mine.reduce((s, r) => s + r.seconds, 0);
    console.log(
      `=== ${ENGINE_NAMES[engine]}: ${count(mine.length, "file")}, ` +
        `${formatSeconds(total)} of file time`,
    );
  }
}
console.log(
  "=== slowest: " + [...done].sort((a, b) => b.seconds - a.seconds).slice(0, 8)
    .map((r) => `${nameOf(r)} ${formatSeconds(r.seconds)}`).join(", "),
);
Deno.exit(bad.length > 0 || checkFailure ? 1 : 0);
