import { describe, it } from "node:test";
import { expect } from "expect";
import { readManifest } from "../../src/assets/manifest.ts";

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
