import { describe, it } from "node:test";
import { expect } from "expect";
import { readManifest } from "../../src/assets/manifest.ts";
import { QUERY_ISLANDS } from "../../components/query_islands.ts";

const islandsDir = new URL("../../islands/", import.meta.url);

async function islandFiles(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(islandsDir)) {
    if (/^[A-Z][A-Za-z0-9]*\.tsx$/.test(entry.name)) names.push(entry.name.replace(".tsx", ""));
  }
  return names.sort();
}

describe("island registry", () => {
  it("the browser entry can load every island in islands/", async () => {
    const entry = await Deno.readTextFile(new URL("_entry.tsx", islandsDir));
    const names = await islandFiles();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(entry).toContain(`${name}: () => import("./${name}.tsx")`);
  });

  it("the built bundle has a chunk for every island", async () => {
    const manifest = await readManifest();
    expect(Object.keys(manifest.islands).sort()).toEqual(await islandFiles());
    expect(manifest.entry).toMatch(/^\/static\/build\/_entry-[0-9a-f]{12}\.js$/);
    expect(manifest.css).toMatch(/^\/static\/build\/app-[0-9a-f]{12}\.css$/);
  });
});

interface GraphModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The browser entry's module graph (dynamic imports included), as Deno resolves it. */
async function entryGraph(): Promise<Map<string, GraphModule>> {
  const { success, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("_entry.tsx", islandsDir).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  expect(success).toBe(true);
  const { modules } = JSON.parse(new TextDecoder().decode(stdout)) as { modules: GraphModule[] };
  return new Map(modules.map((m) => [m.specifier, m]));
}

/** Whether the module's static imports (not `import type`, not `import()`) reach react-query. */
function reachesReactQuery(graph: Map<string, GraphModule>, root: string): boolean {
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    if (/\/@tanstack\/react-query\//.test(specifier)) return true;
    for (const dep of graph.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) queue.push(dep.code.specifier);
    }
  }
  return false;
}

describe("islands that use react-query", () => {
  // Only these get a QueryClientProvider (server and browser), and only a page
  // with one of them loads react-query: a mark missing breaks the island, a
  // mark too many loads react-query where no island needs it.
  it("are exactly the islands marked in components/query_islands.ts", async () => {
    const graph = await entryGraph();
    const using = (await islandFiles()).filter((name) =>
      reachesReactQuery(graph, new URL(`${name}.tsx`, islandsDir).href)
    );
    expect(using.length).toBeGreaterThan(0);
    expect([...QUERY_ISLANDS].sort()).toEqual(using);
  });

  it("are not in the entry's static graph: the entry loads react-query on demand", async () => {
    const graph = await entryGraph();
    expect(reachesReactQuery(graph, new URL("_entry.tsx", islandsDir).href)).toBe(false);
  });
});
