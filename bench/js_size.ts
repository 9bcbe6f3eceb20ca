// JavaScript each page loads, from the manifest's files as built: the
// page's entry scripts and every chunk they import statically (dynamic
// imports load later), brotli and gzip sizes.
import { join } from "node:path";
import { BUILD_DIR } from "../src/assets/manifest.ts";
import { expectOk } from "./session.ts";

export async function measureJsPerPage(base: string, quoteId: string) {
  const pages = ["/dashboard", "/clients", `/quote/${quoteId}`, "/quotes", "/intake"];
  const out = [];
  for (const page of pages) {
    const html = await expectOk(base, page);
    const roots = [...html.matchAll(/(?:src|href)="(\/static\/build\/[^"]+\.js)"/g)].map((m) =>
      m[1]
    );
    const files = await staticImports(roots.map((r) => r.slice("/static/build/".length)));
    let br = 0;
    let gz = 0;
    for (const f of files) {
      br += (await Deno.stat(join(BUILD_DIR.pathname, f + ".br"))).size;
      gz += (await Deno.stat(join(BUILD_DIR.pathname, f + ".gz"))).size;
    }
    out.push({ page: page.replace(quoteId, "{id}"), files: files.length, br, gz });
  }
  return out;
}

async function staticImports(start: string[]) {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await Deno.readTextFile(join(BUILD_DIR.pathname, file));
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) queue.push(m[1]);
  }
  return [...seen].sort();
}
