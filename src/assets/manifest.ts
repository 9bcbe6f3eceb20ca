import { join } from "node:path";

export interface AssetManifest {
  /** Hash of the sources the bundle was built from; the build skips when unchanged. */
  sourceHash: string;
  /** URL of the browser entry that hydrates islands. */
  entry: string;
  /** URL of the stylesheet. */
  css: string;
  /** Island name → URL of its chunk, for <link rel=modulepreload>. */
  islands: Record<string, string>;
  /** Page script name (not an island, no React) → URL; see PAGE_SCRIPTS in build.ts. */
  scripts: Record<string, string>;
}

export const BUILD_DIR = new URL("../../static/build/", import.meta.url);

export async function readManifest(): Promise<AssetManifest> {
  try {
    return JSON.parse(await Deno.readTextFile(join(BUILD_DIR.pathname, "manifest.json")));
  } catch (err) {
    throw new Error(
      "The browser bundle is missing: run `deno task build` (deno task start builds it).",
      { cause: err },
    );
  }
}
