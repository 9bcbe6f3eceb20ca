// The search box is on every staff page, the dashboard included, which shipped
// no JavaScript before it: it may add its own small chunk and nothing else.
import { describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { BUILD_DIR, readManifest } from "../../src/assets/manifest.ts";

const file = (url: string) => join(BUILD_DIR.pathname, url.split("/").pop()!);

/** The chunks a built file imports statically ("./chunk-X.js"). */
async function staticImports(url: string): Promise<string[]> {
  const code = await Deno.readTextFile(file(url));
  return [...code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) =>
    `/static/build/${m[1]}`
  );
}

describe("the search island's bundle", () => {
  it("needs no chunk the entry does not load already", async () => {
    const manifest = await readManifest();
    const entryChunks = await staticImports(manifest.entry);
    const islandChunks = await staticImports(manifest.islands.SearchBox);
    expect(islandChunks.filter((c) => !entryChunks.includes(c))).toEqual([]);
  });

  it("carries no zod", async () => {
    const manifest = await readManifest();
    const code = await Deno.readTextFile(file(manifest.islands.SearchBox));
    expect(code).not.toMatch(/ZodError|\$ZodType|zod/);
    // A schema module imported for a type or a constant would bring zod along.
    for (const chunk of await staticImports(manifest.islands.SearchBox)) {
      expect([chunk, /ZodError|\$ZodType/.test(await Deno.readTextFile(file(chunk)))])
        .toEqual([chunk, false]);
    }
  });
});
