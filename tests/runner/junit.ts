// The per-file JUnit reports of `deno test`, merged into the one report CI
// reads (.ci/junit_totals.ts: every <testcase>...</testcase> with its
// classname). A file that left no usable report (timed out, crashed) gets a
// failing test case named after the file, so CI counts it and names it.

export interface FileReport {
  /** The file's <testsuite> elements, as deno wrote them. */
  suites: string;
  tests: number;
  failures: number;
  errors: number;
}

/** The report deno wrote, or undefined when there is none to read. */
export function parseReport(xml: string): FileReport | undefined {
  const head = /<testsuites\b([^>]*)>/.exec(xml);
  if (!head) return undefined;
  const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head[1])?.[1] ?? 0);
  const suites = xml.match(/<testsuite\b[^>]*\/>|<testsuite\b[^>]*[^/]>[\s\S]*?<\/testsuite>/g) ??
    [];
  return {
    suites: suites.map((s) => `    ${s}\n`).join(""),
    tests: attr("tests"),
    failures: attr("failures"),
    errors: attr("errors"),
  };
}

const ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text for an XML attribute or element; colours and other control characters (not XML) dropped. */
export function escapeXml(text: string): string {
  return text
    // deno-lint-ignore no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, "")
    // deno-lint-ignore no-control-regex
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "")
    .replace(/[<>&"']/g, (c) => ENTITIES[c]);
}

/**
 * One failing test case named after `file` (as deno names files: "./path"),
 * whose message says why; `details` (the end of its output) goes in the body.
 */
export function failureReport(
  file: string,
  message: string,
  seconds: number,
  details = "",
): FileReport {
  const classname = escapeXml(`./${file}`);
  const suites = `    <testsuite name="${classname}" tests="1" disabled="0" errors="0" failures="1">
        <testcase name="${escapeXml(file)}" classname="${classname}" time="${seconds.toFixed(3)}">
            <failure message="${escapeXml(message)}">${escapeXml(details)}</failure>
        </testcase>
    </testsuite>\n`;
  return { suites, tests: 1, failures: 1, errors: 0 };
}

/** One report of all files, in the shape deno writes for a run of many. */
export function mergeReports(reports: FileReport[], seconds: number): string {
  const sum = (key: "tests" | "failures" | "errors") => reports.reduce((n, r) => n + r[key], 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="${sum("tests")}" failures="${sum("failures")}" errors="${
    sum("errors")
  }" time="${seconds.toFixed(3)}">
${reports.map((r) => r.suites).join("")}</testsuites>
`;
}

/**
 * The report of a file run under another name (the file and its engine, when
 * a run covers both): its suites and cases' classname, "./file", renamed.
 */
export function renameFile(report: FileReport, file: string, name: string): FileReport {
  if (name === file) return report;
  const from = escapeXml(`./${file}`);
  const to = escapeXml(`./${name}`);
  const suites = report.suites
    .replaceAll(`<testsuite name="${from}"`, `<testsuite name="${to}"`)
    .replaceAll(`classname="${from}"`, `classname="${to}"`);
  return { ...report, suites };
}
