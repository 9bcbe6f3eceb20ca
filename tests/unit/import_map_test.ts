// The folders' map (docs/architecture.md, "The rooms"), read off the real
// import graph: `deno info --json` of every module, static and dynamic
// imports alike. An import that goes up the map, or a circle of imports,
// fails here with the modules named; there is no list of exceptions.
import { describe, it } from "node:test";
import { expect } from "expect";
import { join, relative } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** What each part of the app may import, besides npm packages and the platform. */
const MAY_IMPORT: Record<string, string[]> = {
  "db": ["db"],
  "src": ["src", "db"],
  "components": ["components", "src", "db"],
  "islands": ["islands", "components", "src", "db"],
  "routes": ["routes", "islands", "components", "src", "db"],
  "main.ts": ["routes", "src", "db"],
  "cli": ["cli", "main.ts", "routes", "src", "db"],
};

/** A unit test beside the code may also use the test helpers and the bench's tools. */
const TESTS_MAY_ALSO_IMPORT = ["tests", "bench"];
const isTest = (path: string) => /_test\.tsx?$/.test(path);

const part = (path: string) => path.includes("/") ? path.slice(0, path.indexOf("/")) : path;

async function appModules(): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: [
      "ls-files",
      "--cached",
      "--others",
      "--exclude-standard",
      "--",
      ...Object.keys(MAY_IMPORT),
    ],
    cwd: root,
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((f) => /\.tsx?$/.test(f));
}

/** The app's import graph: each module's imports of other app modules. */
async function importGraph(modules: string[]): Promise<Map<string, Set<string>>> {
  const dir = await Deno.makeTempDir({ prefix: "lensdesk-imports-" });
  try {
    const entry = join(dir, "all.ts");
    await Deno.writeTextFile(
      entry,
      modules.map((m) => `import ${JSON.stringify("file://" + join(root, m))};`).join("\n"),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", join(root, "deno.json"), entry],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: Array<{
        specifier: string;
        dependencies?: Array<{ code?: { specifier: string }; type?: { specifier: string } }>;
      }>;
    };
    // npm packages are files too (deno.json's "manual" node_modules): not the app's.
    const inApp = (specifier: string) => {
      if (!specifier.startsWith("file://") || specifier.startsWith("file://" + dir)) return;
      const path = relative(root, fromFileUrl(specifier));
      return path.startsWith("node_modules/") ? undefined : path;
    };
    const graph = new Map<string, Set<string>>();
    for (const module of info.modules) {
      const from = inApp(module.specifier);
      if (!from) continue;
      const to = new Set<string>();
      for (const dep of module.dependencies ?? []) {
        for (const target of [dep.code?.specifier, dep.type?.specifier]) {
          const path = target && inApp(target);
          if (path) to.add(path);
        }
      }
      graph.set(from, to);
    }
    return graph;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every circle (strongly connected set of two or more modules), by Tarjan's algorithm. */
function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) found.push(set.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the import map", () => {
  let graph: Map<string, Set<string>>;
  let modules: string[];
  const load = async () => graph ??= await importGraph(modules ??= await appModules());

  it("reads the whole app", async () => {
    const g = await load();
    // Every module of the app, its unit tests too, is in the graph: a broken read would pass
    // the other checks vacuously.
    expect(modules.length).toBeGreaterThan(300);
    expect(modules.filter((m) => !g.has(m))).toEqual([]);
    expect(g.get("routes/app.ts")?.has("routes/api/quotes.ts")).toBe(true);
  });

  it("has no import that goes up the map", async () => {
    const wrong: string[] = [];
    for (const [from, targets] of await load()) {
      const own = MAY_IMPORT[part(from)];
      if (!own) continue;
      const allowed = isTest(from) ? [...own, ...TESTS_MAY_ALSO_IMPORT] : own;
      for (const to of targets) {
        if (!allowed.includes(part(to))) wrong.push(`${from} -> ${to}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has no circle of imports", async () => {
    expect(circles(await load())).toEqual([]);
  });

  it("finds a circle and an upward import when there is one", () => {
    const g = new Map([
      ["src/a.ts", new Set(["src/b.ts"])],
      ["src/b.ts", new Set(["src/c.ts"])],
      ["src/c.ts", new Set(["src/a.ts"])],
      ["src/d.ts", new Set(["src/a.ts"])],
    ]);
    expect(circles(g)).toEqual([["src/a.ts", "src/b.ts", "src/c.ts"]]);
    expect(MAY_IMPORT[part("src/x.ts")].includes(part("routes/app.ts"))).toBe(false);
  });
});
