// The test suite's runner, what `deno task test` runs after the build.
//
// `deno test --parallel` runs every file in one process: one test that never
// settles (an open socket, a promise nobody resolves) holds that process, and
// CI with it, until CI's own limit, with nothing reported. Here each file is
// its own `deno test` process with a time limit; at the limit its whole
// process tree is killed and the file fails, named, with the last test it had
// started. The files are type-checked once up front (one `deno check`), so
// each process can skip that.
//
// Usage: deno run --allow-all tests/runner.ts [path...]
//   paths: test files or folders; none given, LENSDESK_TEST_PATHS (split on
//   spaces), else the whole project (less deno.json's "test.exclude").
// Environment:
//   LENSDESK_TEST_JOBS       files run at once (else DENO_JOBS, else the CPU count)
//   LENSDESK_TEST_TIMEOUT_S  a file's time limit in seconds (600; FILE_LIMITS_S may raise one)
//   LENSDESK_TEST_RESULTS    where junit.xml, the per-file reports and durations-*.json go
//                            (.test-results)
// Exits 1 if the check failed or any file failed, timed out or crashed.
import { join } from "node:path";
import { findTestFiles } from "./runner/discover.ts";
import { runLimited, running } from "./runner/limited_run.ts";
import { failureReport, mergeReports } from "./runner/junit.ts";
import { type FileResult, formatSeconds, runTestFile } from "./runner/run_file.ts";
import {
  type Engine,
  longestFirst,
  readDurations,
  runPool,
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
// Files take other times on the server than on PGlite; each keeps its own.
const engine: Engine = env("TEST_DATABASE_URL") ? "server" : "embedded";
const durationsPath = join(results, `durations-${engine}.json`);
await Deno.remove(perFile, { recursive: true }).catch(() => {});
await Deno.remove(junitPath).catch(() => {});
await Deno.mkdir(perFile, { recursive: true });

const files = findTestFiles(paths, root);
if (files.length === 0) {
  console.log(`=== no test files under ${paths.join(" ")}`);
  Deno.exit(1);
}

// One type check for all files, instead of one per process.
const check = await runLimited(Deno.execPath(), ["check", ...files], CHECK_LIMIT_S * 1000);
if (check.code !== 0) {
  console.log(check.output);
  const why = check.timedOut ? "timed out" : `failed (exit code ${check.code})`;
  console.log(`=== deno check of ${count(files.length, "test file")} ${why}: no test ran`);
  const report = failureReport("deno check", `deno check ${why}`, check.seconds, check.output);
  await Deno.writeTextFile(junitPath, mergeReports([report], check.seconds));
  Deno.exit(1);
}
console.log(
  `=== ${count(files.length, "test file")} type-checked in ${formatSeconds(check.seconds)}; ` +
    `running ${Math.min(jobs, files.length)} at a time, ${formatSeconds(defaultLimit)} limit each`,
);

const durations = readDurations(durationsPath);
const done: FileResult[] = [];
await runPool(longestFirst(files, durations, engine), jobs, async (file) => {
  const report = join(perFile, file.replaceAll("/", "__") + ".xml");
  const result = await runTestFile(file, report, limitOf(file));
  done.push(result);
  // Printed whole when the file ends, so files running together do not mix.
  console.log(result.output.trimEnd());
  console.log(`=== ${result.line}\n`);
});

const wall = (performance.now() - started) / 1000;
// In name order, whatever order the files ended in, so two runs' reports compare line by line.
const byName = [...done].sort((a, b) => a.file.localeCompare(b.file));
await Deno.writeTextFile(junitPath, mergeReports(byName.map((r) => r.report), wall));
writeDurations(
  durationsPath,
  durations,
  Object.fromEntries(done.map((r) => [r.file, Math.round(r.seconds * 10) / 10])),
);

const verdicts = (v: FileResult["verdict"]) => done.filter((r) => r.verdict === v).length;
const bad = done.filter((r) => r.verdict !== "ok");
console.log(
  `=== ${count(done.length, "file")} in ${formatSeconds(wall)}: ${verdicts("ok")} passed, ` +
    `${verdicts("failed")} failed, ${verdicts("timeout")} timed out, ${
      verdicts("crashed")
    } crashed`,
);
for (const r of bad) console.log(`=== ${r.line}`);
console.log(
  "=== slowest: " + [...done].sort((a, b) => b.seconds - a.seconds).slice(0, 8)
    .map((r) => `${r.file} ${formatSeconds(r.seconds)}`).join(", "),
);
Deno.exit(bad.length > 0 ? 1 : 0);
