// The test runner (tests/runner.ts), run for real on four fixture files
// (tests/runner/fixtures/, named *.fixture.ts so the suite itself never runs
// them): one passes, one fails, one dies before writing its report, one hangs
// with a socket and two child processes open. The hung one must be killed at
// its limit with everything it started, and named; the others must report as
// usual, the dead one as a failure named after it.
import { describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { projectRoot } from "../helpers/process.ts";
import { runLimited } from "../runner/limited_run.ts";
import { isAlive } from "../runner/process_tree.ts";
import { lastStartedTest } from "../runner/deno_output.ts";
import { isTestFileName } from "../runner/discover.ts";
import { longestFirst } from "../runner/schedule.ts";

const FIXTURES = "tests/runner/fixtures";
const fixture = (name: string) => `${FIXTURES}/${name}.fixture.ts`;
const LIMIT_S = 3;

describe("the test runner", () => {
  it("kills a hung file at its limit with its whole process tree, names it, and reports the others", async () => {
    const results = await Deno.makeTempDir({ prefix: "lensdesk-runner-test-" });
    try {
      const pidFile = join(results, "pids");
      // Bounded here too: without the runner's limit it would wait on the
      // hung file forever, and this test must fail instead of hanging.
      const run = await runLimited(
        Deno.execPath(),
        [
          "run",
          "--allow-all",
          "tests/runner.ts",
          ...["passing", "failing", "crashing", "hanging"].map(fixture),
        ],
        60_000,
        {
          cwd: projectRoot,
          env: {
            LENSDESK_TEST_TIMEOUT_S: String(LIMIT_S),
            // Only the fixtures: not the files of a run this test is part of.
            LENSDESK_TEST_EMBEDDED_PATHS: "",
            LENSDESK_TEST_JOBS: "4",
            LENSDESK_TEST_RESULTS: results,
            RUNNER_FIXTURE_PIDS: pidFile,
          },
        },
      );
      if (run.timedOut) {
        throw new Error(
          `the runner still ran after 60 s: the hung file was not stopped\n${run.output}`,
        );
      }
      expect(run.code).toBe(1);
      // The file took its limit, not more: nothing waited on the hung process.
      const hungLine = run.output.split("\n").find((l) => l.startsWith("=== TIMEOUT"));
      expect(hungLine).toMatch(
        new RegExp(
          `^=== TIMEOUT ${fixture("hanging")}: still running at its limit of 3\\.0 s, ` +
            `killed with its tree \\(\\d+ process(es)?\\); last test started: ` +
            `"waits for a connection that never comes" \\(still running\\)$`,
        ),
      );
      expect(run.output).toContain(`=== ok ${fixture("passing")}`);
      expect(run.output).toContain(`=== FAILED ${fixture("failing")}`);
      // deno's own lines are kept.
      expect(run.output).toMatch(/adds \.\.\. .*ok/);
      expect(run.output).toMatch(/fails on purpose \.\.\. .*FAILED/);
      expect(run.output).toContain(`=== CRASHED ${fixture("crashing")} `);
      // What failed is said again at the end, where a log's tail shows it.
      const said = `=== what ${fixture("failing")} said of its failure:\n`;
      const end = run.output.slice(run.output.indexOf(said));
      expect(end.startsWith(`${said} ERRORS`)).toBe(true);
      expect(end).toContain("error: Error: expected failure of the failing fixture");
      expect(run.output).toContain("1 passed, 1 failed, 1 timed out, 1 crashed");

      // Its child processes, in its group and in a session of their own, are gone.
      const pids = (await Deno.readTextFile(pidFile)).split(" ").map(Number);
      expect(pids).toHaveLength(2);
      expect(pids.filter(isAlive)).toEqual([]);

      // The merged report: deno's cases and the hung file's, read as CI reads it.
      const junit = await Deno.readTextFile(join(results, "junit.xml"));
      const hung = new RegExp(
        `<testcase name="${fixture("hanging")}" classname="./${fixture("hanging")}"[^>]*>\\s*` +
          `<failure message="still running at its limit of 3.0 s`,
      );
      expect(junit).toMatch(hung);
      expect(junit).toMatch(/<testcase name="fails on purpose"[^>]*>\s*<failure/);
      expect(junit).toMatch(
        new RegExp(`<testcase name="${fixture("crashing")}"[^>]*>\\s*<failure message="exited`),
      );
      const totals = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-read", ".ci/junit_totals.ts", join(results, "junit.xml")],
        cwd: projectRoot,
        stderr: "null",
      }).output();
      // adds and passes passed; fails on purpose, the dead file and the hung one failed.
      expect(new TextDecoder().decode(totals.stdout).trim()).toBe("2 3");
    } finally {
      await Deno.remove(results, { recursive: true });
    }
  });

  it("runs files on both engines in one run: the server's with its URL, PGlite's without, a one-engine file once", async () => {
    const results = await Deno.makeTempDir({ prefix: "lensdesk-runner-test-" });
    try {
      const run = await runLimited(
        Deno.execPath(),
        ["run", "--allow-all", "tests/runner.ts", fixture("engine"), fixture("once")],
        60_000,
        {
          cwd: projectRoot,
          env: {
            TEST_DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
            LENSDESK_TEST_EMBEDDED_PATHS: [fixture("engine"), fixture("once"), fixture("passing")]
              .join(" "),
            LENSDESK_TEST_JOBS: "2",
            LENSDESK_TEST_RESULTS: results,
          },
        },
      );
      expect(run.code).toBe(0);
      // The file that says "One engine:" runs once, on the server.
      expect(run.output).toContain("=== 4 test file runs (3 files)");
      expect(run.output).toContain(`=== ok ${fixture("once")} [server]`);
      expect(run.output).not.toContain(`${fixture("once")} [PGlite]`);
      expect(run.output).toContain("engine: server postgres://nobody@127.0.0.1:1/none");
      expect(run.output).toContain("engine: PGlite");
      expect(run.output).toContain(`=== ok ${fixture("engine")} [server]`);
      expect(run.output).toContain(`=== ok ${fixture("engine")} [PGlite]`);
      expect(run.output).toContain(`=== ok ${fixture("passing")} [PGlite]`);
      // The report names each run with its engine; each engine keeps its own times.
      const junit = await Deno.readTextFile(join(results, "junit.xml"));
      expect(junit).toContain(`classname="./${fixture("engine")} [server]"`);
      expect(junit).toContain(`classname="./${fixture("engine")} [PGlite]"`);
      const times = (engine: string) =>
        Object.keys(JSON.parse(Deno.readTextFileSync(join(results, `durations-${engine}.json`))));
      expect(times("server")).toEqual([fixture("engine"), fixture("once")]);
      expect(times("embedded")).toEqual([fixture("engine"), fixture("passing")]);
    } finally {
      await Deno.remove(results, { recursive: true });
    }
  });

  it("names the innermost test still running, or the last one that finished", () => {
    const out = "running 2 tests from ./a_test.ts\n" +
      "first ... \x1b[32mok\x1b[0m (1ms)\ngroup ...\n  inner one ... ok (0ms)\n  inner two ...";
    expect(lastStartedTest(out)).toEqual({ name: "group > inner two", running: true });
    expect(lastStartedTest("a ... ok (1ms)\nb ...\n  s ... ok (0ms)\nb ... ok (2ms)\n"))
      .toEqual({ name: "b", running: false });
    expect(lastStartedTest("running 1 test from ./a_test.ts\n")).toBeUndefined();
  });

  it("finds the files deno test finds, and starts the longest first", () => {
    for (const name of ["a_test.ts", "b.test.tsx", "test.mjs", "c/__tests__/d.js"]) {
      expect(isTestFileName(name)).toBe(true);
    }
    for (const name of ["a.fixture.ts", "latest.ts", "a_test.d", "a_tests.ts"]) {
      expect(isTestFileName(name)).toBe(false);
    }
    const embedded = (file: string) => ({ file, engine: "embedded" as const });
    const server = (file: string) => ({ file, engine: "server" as const });
    expect(longestFirst(
      [embedded("src/x_test.ts"), embedded("tests/e2e/y_test.ts"), embedded("tests/z_test.ts")],
      { embedded: { "tests/z_test.ts": 90 }, server: {} },
    )).toEqual([
      embedded("tests/z_test.ts"),
      embedded("tests/e2e/y_test.ts"),
      embedded("src/x_test.ts"),
    ]);
    // Each engine's own times: the same file may be long on one and short on the other.
    expect(longestFirst(
      [embedded("tests/a_test.ts"), server("tests/a_test.ts"), server("tests/b_test.ts")],
      {
        embedded: { "tests/a_test.ts": 5 },
        server: { "tests/a_test.ts": 50, "tests/b_test.ts": 20 },
      },
    )).toEqual([server("tests/a_test.ts"), server("tests/b_test.ts"), embedded("tests/a_test.ts")]);
  });
});
