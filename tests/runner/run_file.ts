// One test file in a `deno test` process of its own, under its time limit,
// and what came of it: its output, its JUnit report (deno's, or a failing
// case named after the file when deno left none to count) and a verdict.
import { runLimited } from "./limited_run.ts";
import { describeLastTest, lastStartedTest } from "./deno_output.ts";
import { failureReport, type FileReport, parseReport, renameFile } from "./junit.ts";

export type Verdict = "ok" | "failed" | "timeout" | "crashed";

export interface FileResult {
  file: string;
  verdict: Verdict;
  seconds: number;
  output: string;
  report: FileReport;
  /** One line for the log: the verdict, the time and, for a timeout or crash, why. */
  line: string;
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min` + (whole % 60 ? ` ${whole % 60} s` : "");
}

/** The last lines of `output`, for a failure's body in the report. */
function tail(output: string, lines = 40): string {
  return output.trimEnd().split("\n").slice(-lines).join("\n");
}

function readReport(path: string): FileReport | undefined {
  try {
    return parseReport(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}

export interface RunOptions {
  /** The file's name in the log and the report (else the file). */
  name?: string;
  /** A batch's files, run by the one `deno test` (else just `file`, which names the batch). */
  files?: string[];
  /** The name a batch's file has in the report (else its own). */
  nameOf?: (file: string) => string;
  /** The whole environment of its process (else this one's). */
  env?: Record<string, string>;
}

export async function runTestFile(
  file: string,
  junitPath: string,
  limitSeconds: number,
  options: RunOptions = {},
): Promise<FileResult> {
  const name = options.name ?? file;
  // Type-checked by the runner's one `deno check` of every file, hence --no-check.
  const run = await runLimited(
    Deno.execPath(),
    [
      "test",
      "--allow-all",
      "--no-prompt",
      "--no-check",
      `--junit-path=${junitPath}`,
      ...(options.files ?? [file]),
    ],
    limitSeconds * 1000,
    { env: options.env, clearEnv: options.env !== undefined },
  );
  const took = formatSeconds(run.seconds);

  if (run.timedOut) {
    const why = `still running at its limit of ${formatSeconds(limitSeconds)}, ` +
      `killed with its tree (${run.killed} process${run.killed === 1 ? "" : "es"}` +
      (run.exited ? ")" : "; it was not seen to exit)") +
      `; last test started: ${describeLastTest(lastStartedTest(run.output))}`;
    return {
      file,
      verdict: "timeout",
      seconds: run.seconds,
      output: run.output,
      report: failureReport(name, why, run.seconds, tail(run.output)),
      line: `TIMEOUT ${name}: ${why}`,
    };
  }

  const written = readReport(junitPath);
  const report = written &&
    (options.files
      ? options.files.reduce((r, f) => renameFile(r, f, options.nameOf?.(f) ?? f), written)
      : renameFile(written, file, name));
  if (run.code === 0 && report) {
    return {
      file,
      verdict: "ok",
      seconds: run.seconds,
      output: run.output,
      report,
      line: `ok ${name} (${took})`,
    };
  }
  if (report && report.failures + report.errors > 0) {
    // How many failed is in deno's own summary line, just above.
    const line = `FAILED ${name} (${took})`;
    return { file, verdict: "failed", seconds: run.seconds, output: run.output, report, line };
  }
  // A failure deno's report does not hold (an error outside any test, a
  // crash, no report at all): one failing case named after the file.
  const why = `exited with code ${run.code} ` +
    (report ? "with no failing test in its report" : "without a report") +
    " (an error outside any test, or a crash; see its output)";
  const crash = failureReport(name, why, run.seconds, tail(run.output));
  return {
    file,
    verdict: "crashed",
    seconds: run.seconds,
    output: run.output,
    report: report
      ? { ...crash, suites: report.suites + crash.suites, tests: report.tests + 1 }
      : crash,
    line: `CRASHED ${name} (${took}) ${why}`,
  };
}
