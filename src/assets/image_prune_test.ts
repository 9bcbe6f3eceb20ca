import { describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { mustRemain, packageFile, prune, pruneReason, pruneRules } from "./image_prune.ts";
import { FACES } from "../pdf/fonts.ts";
import { pgliteExtensions } from "../db/database.ts";

const keep = {
  fontFiles: FACES.map((f) => f.file),
  pgliteExtensions: Object.keys(pgliteExtensions),
};
const rules = pruneRules(keep);
const reason = (name: string, path: string) => pruneReason(rules, { name, path });

describe("image_prune", () => {
  it("reads the package and the path from a file under node_modules/.deno", () => {
    expect(packageFile("hono@4.13.19/node_modules/hono/dist/index.js"))
      .toEqual({ name: "hono", path: "dist/index.js" });
    expect(packageFile("@electric-sql+pglite@0.5.16/node_modules/@electric-sql/pglite/dist/a.js"))
      .toEqual({ name: "@electric-sql/pglite", path: "dist/a.js" });
    // Deno's own bookkeeping beside the packages stays.
    expect(packageFile(".setup-cache.bin")).toBeNull();
    expect(packageFile("hono@4.13.19/.initialized")).toBeNull();
  });

  it("keeps what runs: code, wasm, data, native builds for this system, licences", () => {
    for (
      const [name, path] of [
        ["hono", "dist/index.js"],
        ["hono", "dist/cjs/index.js"],
        ["pdf-lib", "cjs/index.js"],
        ["pdf-lib", "package.json"],
        ["@electric-sql/pglite", "dist/pglite.wasm"],
        ["@electric-sql/pglite", "dist/pglite.data"],
        ["@electric-sql/pglite", "dist/pg_trgm.tar.gz"],
        ["@node-rs/argon2-linux-x64-gnu", "argon2.linux-x64-gnu.node"],
        ["react-dom", "cjs/react-dom-server.node.production.js"],
        // Deno's CommonJS analysis follows both branches of React's NODE_ENV switch.
        ["react-dom", "cjs/react-dom-server.node.development.js"],
        ["dejavu-fonts-ttf", "LICENSE"],
        ["hyphen", "patterns/en-us.js"],
        ["csv-parse", "dist/esm/index.js"],
        ["pako", "lib/zlib/deflate.js"],
        ["zod", "index.js"],
        ["zod", "v4/classic/schemas.js"],
      ]
    ) {
      expect({ name, path, reason: reason(name, path) }).toEqual({ name, path, reason: null });
    }
    for (const face of keep.fontFiles) expect(reason("dejavu-fonts-ttf", `ttf/${face}`)).toBeNull();
  });

  it("drops what nothing loads at run time, saying why", () => {
    expect(reason("hono", "dist/index.js.map")).toBe("source maps");
    expect(reason("hono", "dist/types/index.d.ts")).toBe("type declarations");
    expect(reason("zod", "v4/core/api.d.cts")).toBe("type declarations");
    expect(reason("pdf-lib", "src/api/PDFPage.ts")).toBe("TypeScript sources");
    expect(reason("kysely", "README.md")).toBe("docs and tooling");
    expect(reason("pdfkit", ".yarn/releases/yarn-4.16.0.cjs")).toBe("docs and tooling");
    expect(reason("@node-rs/argon2-linux-x64-musl", "argon2.linux-x64-musl.node"))
      .toBe("native builds for other systems");
    expect(reason("pdf-lib", "dist/pdf-lib.min.js")).toBe("browser builds");
    expect(reason("pdf-lib", "es/index.js")).toBe("browser builds");
    expect(reason("csv-parse", "dist/umd/sync.js")).toBe("browser builds");
    expect(reason("pako", "dist/pako.min.js")).toBe("browser builds");
    expect(reason("pdfkit", "js/pdfkit.standalone.js")).toBe("browser builds");
    expect(reason("fontkit", "dist/browser-module.mjs")).toBe("browser builds");
    expect(reason("zod", "v4/classic/schemas.cjs")).toBe("CommonJS builds");
    expect(reason("react-dom", "cjs/react-dom-client.production.js"))
      .toBe("React builds for browsers and other runtimes");
    expect(reason("react-dom", "cjs/react-dom-server.bun.production.js"))
      .toBe("React builds for browsers and other runtimes");
    expect(reason("dejavu-fonts-ttf", "ttf/DejaVuSerif.ttf")).toBe(
      "font faces the PDF does not use",
    );
    expect(reason("dejavu-fonts-ttf", "status.txt")).toBe("font faces the PDF does not use");
    expect(reason("hyphen", "patterns/de.js")).toBe("hyphenation patterns of other languages");
    expect(reason("@electric-sql/pglite", "dist/vector.tar.gz"))
      .toBe("PGlite extensions the app does not load");
  });

  it("names the app's fonts and PGlite extensions among the files that must remain", () => {
    const remain = mustRemain(keep).map((f) => `${f.name}/${f.path}`);
    expect(remain).toEqual(expect.arrayContaining([
      ...keep.fontFiles.map((f) => `dejavu-fonts-ttf/ttf/${f}`),
      ...keep.pgliteExtensions.map((e) => `@electric-sql/pglite/dist/${e}.tar.gz`),
    ]));
    for (const { name, path } of mustRemain(keep)) expect(reason(name, path)).toBeNull();
  });

  it("deletes the dropped files of a store and counts them by reason", async () => {
    const store = await Deno.makeTempDir();
    try {
      const files = {
        "hono@4.13.19/node_modules/hono/dist/index.js": "code",
        "hono@4.13.19/node_modules/hono/dist/index.js.map": "{}",
        "hono@4.13.19/node_modules/hono/package.json": "{}",
        "dejavu-fonts-ttf@2.37.3/node_modules/dejavu-fonts-ttf/ttf/DejaVuSerif.ttf": "font",
        ".setup-cache.bin": "state",
      };
      for (const [path, text] of Object.entries(files)) {
        await Deno.mkdir(join(store, path, ".."), { recursive: true });
        await Deno.writeTextFile(join(store, path), text);
      }
      const { dropped, keptBytes } = await prune(store, rules);
      expect(Object.fromEntries(dropped)).toEqual({
        "source maps": { files: 1, bytes: 2 },
        "font faces the PDF does not use": { files: 1, bytes: 4 },
      });
      expect(keptBytes).toBe("code".length + "{}".length + "state".length);
      const exists = (path: string) => Deno.stat(join(store, path)).then(() => true, () => false);
      expect(await exists("hono@4.13.19/node_modules/hono/dist/index.js")).toBe(true);
      expect(await exists("hono@4.13.19/node_modules/hono/dist/index.js.map")).toBe(false);
      expect(await exists(".setup-cache.bin")).toBe(true);
    } finally {
      await Deno.remove(store, { recursive: true });
    }
  });
});
