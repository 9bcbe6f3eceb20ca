// The image build drops the imports only the tests use from deno.json before
// `deno install`, then checks that the lock the install rewrote only lost
// entries: every package left is the locked one, with the locked integrity and
// the same dependencies. The Dockerfile runs this file before the sources are
// copied, with --no-config, so it imports nothing.
//
//   deno run --no-config --allow-read --allow-write --allow-env prune_imports.ts prune deno.json
//   deno run --no-config --allow-read prune_imports.ts check <full deno.lock> <pruned deno.lock>

/** The parts of deno.json the prune touches. */
export interface DenoConfig {
  imports: Record<string, string>;
  compilerOptions?: { types?: string[]; [option: string]: unknown };
  [key: string]: unknown;
}

/** The parts of deno.lock (version 5) the check reads. */
export interface DenoLock {
  specifiers: Record<string, string>;
  npm: Record<string, { integrity: string; dependencies?: string[]; [key: string]: unknown }>;
  [key: string]: unknown;
}

/**
 * deno.json without the named imports and without compilerOptions.types (the
 * @types/* packages serve `deno check` only). A name that is not an import is
 * an error: the list and deno.json drifted apart.
 */
export function pruneConfig(cfg: DenoConfig, names: string[]): DenoConfig {
  const imports = { ...cfg.imports };
  for (const name of names) {
    if (!(name in imports)) throw new Error(`TEST_ONLY_IMPORTS: ${name} is not in deno.json`);
    delete imports[name];
  }
  const out: DenoConfig = { ...cfg, imports };
  if (cfg.compilerOptions) {
    const { types: _types, ...compilerOptions } = cfg.compilerOptions;
    out.compilerOptions = compilerOptions;
  }
  return out;
}

/** The names in a TEST_ONLY_IMPORTS value: separated by any whitespace. */
export function importNames(list: string): string[] {
  return list.split(/\s+/).filter(Boolean);
}

// A lock lists a dependency as a bare name when only one version is locked,
// and as name@version (plus peer suffix) otherwise: compare the resolved keys.
function resolveDependency(lock: DenoLock, dep: string): string | undefined {
  return /.@/.test(dep) ? dep : Object.keys(lock.npm).find((key) => key.startsWith(dep + "@"));
}

function dependencyKeys(lock: DenoLock, deps: string[] | undefined): string {
  return JSON.stringify((deps ?? []).map((d) => resolveDependency(lock, d)).sort());
}

/**
 * What the pruned lock has that the full one does not: a specifier resolved
 * otherwise, or a package that is new or differs in integrity or dependencies.
 * Empty when the pruned lock is a subset of the full one.
 */
export function lockProblems(full: DenoLock, pruned: DenoLock): string[] {
  const problems: string[] = [];
  for (const [spec, to] of Object.entries(pruned.specifiers)) {
    if (full.specifiers[spec] !== to) problems.push(`pruned deno.lock changed ${spec}`);
  }
  for (const [key, entry] of Object.entries(pruned.npm)) {
    const locked = full.npm[key];
    const same = locked !== undefined && locked.integrity === entry.integrity &&
      dependencyKeys(full, locked.dependencies) === dependencyKeys(pruned, entry.dependencies);
    if (!same) problems.push(`pruned deno.lock changed ${key}`);
  }
  return problems;
}

function readJson<T>(path: string): T {
  return JSON.parse(Deno.readTextFileSync(path)) as T;
}

function main(args: string[]): void {
  const [command, ...paths] = args;
  if (command === "prune" && paths.length === 1) {
    const names = importNames(Deno.env.get("TEST_ONLY_IMPORTS") ?? "");
    const pruned = pruneConfig(readJson<DenoConfig>(paths[0]), names);
    Deno.writeTextFileSync(paths[0], JSON.stringify(pruned, null, 2));
    return;
  }
  if (command === "check" && paths.length === 2) {
    const problems = lockProblems(readJson<DenoLock>(paths[0]), readJson<DenoLock>(paths[1]));
    if (problems.length > 0) throw new Error(problems.join("\n"));
    return;
  }
  throw new Error(
    "usage: prune_imports.ts prune <deno.json> | check <full deno.lock> <pruned deno.lock>",
  );
}

if (import.meta.main) main(Deno.args);
