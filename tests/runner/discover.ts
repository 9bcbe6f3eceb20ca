// The test files under the given paths, found as `deno test` finds them: in a
// folder, a file named test.<ext>, *_test.<ext> or *.test.<ext>, or any
// file under a __tests__ folder (<ext>: js, jsx, mjs, cjs, ts, tsx, mts, cts);
// node_modules and .git folders and the config's "test.exclude" are skipped.
// A path naming a file is taken whatever its name, as `deno test` does (the
// runner's own tests run fixtures named *.fixture.ts that way).
import { isAbsolute, join, normalize, relative, resolve } from "node:path";

const EXTENSION = /\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)$/;
const TEST_NAME = /^(?:.*[_.])?test\.[a-z]+$/;
const NEVER_WALKED = new Set(["node_modules", ".git"]);

export function isTestFileName(path: string): boolean {
  const parts = path.split("/");
  const name = parts[parts.length - 1];
  return EXTENSION.test(name) && (TEST_NAME.test(name) || parts.includes("__tests__"));
}

/** deno.json's "test.exclude", as paths relative to `root` without a trailing slash. */
export function testExcludes(root: string): string[] {
  try {
    const config = JSON.parse(Deno.readTextFileSync(join(root, "deno.json")));
    const exclude: string[] = config?.test?.exclude ?? [];
    return exclude.map((p) => normalize(p).replace(/\/+$/, "").replace(/^\.\//, ""));
  } catch {
    return [];
  }
}

function under(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + "/");
}

/**
 * The test files under `paths` (relative to `root`, or absolute), as sorted
 * paths relative to `root`. Throws for a path that does not exist.
 */
export function findTestFiles(paths: string[], root: string): string[] {
  const excludes = testExcludes(root);
  const found = new Set<string>();
  const rel = (p: string) => relative(root, isAbsolute(p) ? p : resolve(root, p)) || ".";
  const excluded = (p: string) => excludes.some((e) => under(p, e));

  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(join(root, dir))) {
      const path = dir === "." ? entry.name : `${dir}/${entry.name}`;
      if (excluded(path)) continue;
      if (entry.isDirectory && !NEVER_WALKED.has(entry.name)) walk(path);
      else if (entry.isFile && isTestFileName(path)) found.add(path);
    }
  };

  for (const given of paths) {
    const path = rel(given);
    const info = Deno.statSync(join(root, path)); // throws NotFound, naming the path
    if (info.isDirectory) walk(path);
    else if (!excluded(path)) found.add(path);
  }
  return [...found].sort();
}

/**
 * Whether a test file says its subject does not change with the database
 * under it (HTTP headers, input checks, plain reads and writes, the plans a
 * store's server makes): a line starting
 * "// One engine:" (and why) among its first lines. A run of both engines
 * runs such a file once, on the server.
 */
export function oneEngine(file: string, root = Deno.cwd()): boolean {
  const head = Deno.readTextFileSync(join(root, file)).slice(0, 4000);
  return /^\/\/ One engine: /m.test(head);
}
