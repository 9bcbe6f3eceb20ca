// Reads a Deno JUnit report. Prints "PASSED FAILED" on the first line, counting
// only leaf test cases (a describe() block is listed beside its it() steps and
// must not be counted twice); then, for the log, the test time of each folder
// and the slowest files (a file's time is the sum of its top-level tests; with
// files run in parallel these add up to more than the run's wall time).
const xml = await Deno.readTextFile(Deno.args[0]);
const cases = [
  ...xml.matchAll(/<testcase name="([^"]*)"([^>]*)>([\s\S]*?)<\/testcase>/g),
].map((m) => ({
  name: m[1],
  file: /classname="([^"]*)"/.exec(m[2])?.[1] ?? "",
  seconds: Number(/time="([^"]*)"/.exec(m[2])?.[1] ?? 0),
  failed: /<failure|<error/.test(m[3]),
}));
const names = new Set(cases.map((c) => c.name));
const isParent = (name: string) => [...names].some((n) => n.startsWith(name + " &gt; "));
const leaves = cases.filter((c) => !isParent(c.name));
const failed = leaves.filter((c) => c.failed).length;
console.log(`${leaves.length - failed} ${failed}`);

const byFile = new Map<string, number>();
for (const c of cases) {
  if (c.name.includes(" &gt; ")) continue;
  byFile.set(c.file, (byFile.get(c.file) ?? 0) + c.seconds);
}
const byFolder = new Map<string, number>();
for (const [file, seconds] of byFile) {
  // "./tests/api/x_test.ts [PGlite]": a file run on both engines is named with its engine.
  const engine = / \[[^\]]+\]$/.exec(file)?.[0] ?? "";
  const folder = file.replace(/^\.\//, "").split("/").slice(0, 2).join("/").replace(
    / \[[^\]]+\]$/,
    "",
  );
  const key = (folder.startsWith("src") ? "src (unit)" : folder) + engine;
  byFolder.set(key, (byFolder.get(key) ?? 0) + seconds);
}
const s = (n: number) => `${Math.round(n)} s`;
console.error(
  "  test time by folder: " + [...byFolder].sort((a, b) => b[1] - a[1])
    .map(([folder, seconds]) => `${folder} ${s(seconds)}`).join(", "),
);
console.error(
  "  slowest files: " + [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 8)
    .map(([file, seconds]) => `${file.replace(/^\.\//, "")} ${s(seconds)}`).join(", "),
);
