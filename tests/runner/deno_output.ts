// What `deno test` was doing when it was stopped, read from its output: it
// prints "name ..." when a test or step starts and the result on the same
// line ("name ... ok (3ms)") or, once its steps have printed beneath it, on a
// line of its own at the same indentation. Only the report's own lines are
// read; anything a test printed is treated alike and may at worst name a
// wrong test, never break the run.

// deno colours its report even into a pipe.
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const LINE = /^( *)(.+?) \.\.\.(?: (ok|FAILED|ignored|cancelled)\b.*)?$/;

export interface LastTest {
  /** The test and its open steps, outermost first, joined with " > ". */
  name: string;
  /** False when it had already finished (the file then hung after it, in a hook or between tests). */
  running: boolean;
}

export function lastStartedTest(output: string): LastTest | undefined {
  const open: string[] = [];
  let last: LastTest | undefined;
  for (const raw of output.replace(ANSI, "").split("\n")) {
    const m = LINE.exec(raw.trimEnd());
    if (!m) continue;
    const depth = m[1].length / 2;
    if (!Number.isInteger(depth) || depth > open.length) continue;
    open.length = depth;
    last = { name: [...open, m[2]].join(" > "), running: !m[3] };
    if (!m[3]) open.push(m[2]);
  }
  // A test still open outlives the steps that finished inside it.
  if (open.length > 0) return { name: open.join(" > "), running: true };
  return last;
}

/** "a > b" (still running), "a > b" (had finished), or "none". */
export function describeLastTest(last: LastTest | undefined): string {
  if (!last) return "none (it hung before its first test)";
  return `"${last.name}" (${last.running ? "still running" : "had finished"})`;
}

/**
 * What a failing file said of its failure: deno's ERRORS section (each
 * failed test with its error and stack) to the end, else (a crash, a
 * timeout) the output's last lines; at most `lines` lines, colours dropped.
 */
export function failureSection(output: string, lines: number): string {
  const all = output.replace(ANSI, "").trimEnd().split("\n");
  const heading = all.findLastIndex((line) => /^ ERRORS $/.test(line));
  if (heading < 0) return all.slice(-lines).join("\n");
  const section = all.slice(heading);
  if (section.length <= lines) return section.join("\n");
  return [
    ...section.slice(0, lines),
    `… ${section.length - lines} more lines in the file's output above`,
  ].join("\n");
}
