// Trims the container image's node_modules to what the app can load at run
// time (the Dockerfile runs this in its build stage, after `deno install` and
// `deno cache`). What goes: source maps, type declarations and TypeScript
// sources (Deno runs neither inside npm packages), docs, native builds for
// other systems, builds for browsers and other runtimes, the DejaVu faces
// the PDF does not register, hyphenation patterns of other languages and
// PGlite extensions the app does not load. Every package stays installed
// (its package.json, licence and run-time files), so Deno's resolution and
// its node_modules state are those of the full install; the checks at the
// end fail the build if a file the app does load went missing, e.g. after a
// package changed its layout.
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { FACES } from "../pdf/fonts.ts";
import { pgliteExtensions } from "../db/database.ts";

/** A file inside an installed package: the package's name and the path under its folder. */
export interface PackageFile {
  name: string;
  path: string;
}

/** Why a file is dropped, or null when it stays. */
export type PruneRule = (file: PackageFile) => string | null;

/** The rules, given what the app loads from DejaVu and PGlite. */
export function pruneRules(keep: { fontFiles: string[]; pgliteExtensions: string[] }): PruneRule[] {
  const fonts = new Set(keep.fontFiles);
  const extensions = new Set(keep.pgliteExtensions.map((e) => `dist/${e}.tar.gz`));
  return [
    ({ path }) => /\.map$/.test(path) ? "source maps" : null,
    ({ path }) => /\.d\.[cm]?ts$/.test(path) ? "type declarations" : null,
    // Deno refuses TypeScript inside node_modules; packages ship it for editors.
    ({ path }) => /\.(ts|mts|cts|tsx)$/.test(path) ? "TypeScript sources" : null,
    ({ path }) =>
      /\.(md|markdown|tsbuildinfo|flow)$/i.test(path) ||
        /(^|\/)\.(github|yarn|vscode|idea)\//.test(path)
        ? "docs and tooling"
        : null,
    // The image is linux-x64 with glibc; @node-rs/argon2 also installs its musl build.
    ({ name }) =>
      /-(musl|darwin|win32|freebsd|android)(-|$)/.test(name)
        ? "native builds for other systems"
        : null,
    // Script-tag bundles (UMD, IIFE) are for browsers and CDNs. Deno loads
    // pdf-lib's and pako's `main` (cjs/, lib/), and pdfkit's and fontkit's
    // node entries ("exports" conditions).
    ({ name, path }) =>
      /(^|\/)dist\/(umd|iife)\//.test(path) ||
        (name === "pdf-lib" && /^(dist|es)\//.test(path)) ||
        (name === "pako" && /^dist\//.test(path)) ||
        (name === "pdfkit" && /^js\/pdfkit\.(browser|standalone|old)\b/.test(path)) ||
        (name === "fontkit" && /^dist\/browser/.test(path))
        ? "browser builds"
        : null,
    // Only the app imports zod, as ES modules ("import" condition): its
    // CommonJS twins (1.3 MB) are for require(), which nothing here calls.
    ({ name, path }) => name === "zod" && /\.cjs$/.test(path) ? "CommonJS builds" : null,
    // The server renders with react-dom/server's node build (Deno's condition);
    // the client builds are in the browser bundle already (static/build).
    ({ name, path }) =>
      name === "react-dom" &&
        /^cjs\/react-dom-(client|profiling|server\.(browser|bun|edge)|server-legacy\.browser)\./
          .test(path)
        ? "React builds for browsers and other runtimes"
        : null,
    ({ name, path }) =>
      name === "dejavu-fonts-ttf" &&
        (/^ttf\//.test(path) ? !fonts.has(path.slice(4)) : /\.txt$/.test(path))
        ? "font faces the PDF does not use"
        : null,
    // @react-pdf/textkit hyphenates with @react-pdf/hyphenate/en-us only.
    ({ name, path }) =>
      name === "hyphen" && /^patterns\//.test(path) && path !== "patterns/en-us.js"
        ? "hyphenation patterns of other languages"
        : null,
    ({ name, path }) =>
      name === "@electric-sql/pglite" && /^dist\/[^/]+\.tar\.gz$/.test(path) &&
        !extensions.has(path)
        ? "PGlite extensions the app does not load"
        : null,
  ];
}

/** The first rule's reason for dropping the file, or null. */
export function pruneReason(rules: PruneRule[], file: PackageFile): string | null {
  for (const rule of rules) {
    const reason = rule(file);
    if (reason) return reason;
  }
  return null;
}

/**
 * Files the app loads that the rules sit next to: each must still be there.
 * Paths as in PackageFile, under the package's folder.
 */
export function mustRemain(keep: { fontFiles: string[]; pgliteExtensions: string[] }) {
  return [
    ...keep.fontFiles.map((f) => ({ name: "dejavu-fonts-ttf", path: `ttf/${f}` })),
    ...keep.pgliteExtensions.map((e) => ({
      name: "@electric-sql/pglite",
      path: `dist/${e}.tar.gz`,
    })),
    { name: "@electric-sql/pglite", path: "dist/pglite.wasm" },
    { name: "@electric-sql/pglite", path: "dist/pglite.data" },
    { name: "hyphen", path: "patterns/en-us.js" },
    { name: "react-dom", path: "cjs/react-dom-server.node.production.js" },
    { name: "react-dom", path: "cjs/react-dom-server-legacy.node.production.js" },
    { name: "pdf-lib", path: "cjs/index.js" },
    { name: "pako", path: "index.js" },
    { name: "csv-parse", path: "lib/sync.js" },
    { name: "csv-stringify", path: "lib/sync.js" },
    { name: "pdfkit", path: "js/pdfkit.node.mjs" },
    { name: "pdfkit", path: "js/pdfkit.js" },
    { name: "fontkit", path: "dist/module.mjs" },
    { name: "fontkit", path: "dist/main.cjs" },
    { name: "zod", path: "index.js" },
  ];
}

/**
 * A package file from its path under node_modules/.deno
 * ("<pkg>@<version>/node_modules/<name>/<path>"), or null for Deno's own
 * files there and for packages linked under another package.
 */
export function packageFile(rel: string): PackageFile | null {
  const m = /^[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(rel);
  return m ? { name: m[1], path: m[2] } : null;
}

async function* files(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* files(path);
    else if (entry.isFile) yield path;
  }
}

/** Drops what the rules name under `store` (node_modules/.deno); returns bytes by reason. */
export async function prune(store: string, rules: PruneRule[]) {
  const dropped = new Map<string, { files: number; bytes: number }>();
  let keptBytes = 0;
  for await (const path of files(store)) {
    const file = packageFile(relative(store, path));
    const reason = file && pruneReason(rules, file);
    const { size } = await Deno.stat(path);
    if (!reason) {
      keptBytes += size;
      continue;
    }
    await Deno.remove(path);
    const total = dropped.get(reason) ?? { files: 0, bytes: 0 };
    total.files++;
    total.bytes += size;
    dropped.set(reason, total);
  }
  return { dropped, keptBytes };
}

if (import.meta.main) {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const store = Deno.args[0] ?? join(root, "node_modules", ".deno");
  const keep = {
    fontFiles: FACES.map((f) => f.file),
    pgliteExtensions: Object.keys(pgliteExtensions),
  };
  const { dropped, keptBytes } = await prune(store, pruneRules(keep));
  const mb = (n: number) => (n / 1e6).toFixed(1);
  for (const [reason, { files, bytes }] of dropped) {
    console.log(`dropped ${mb(bytes)} MB in ${files} files: ${reason}`);
  }
  console.log(`kept ${mb(keptBytes)} MB`);
  // The folders of each package by name (several versions may be installed).
  const missing: string[] = [];
  for (const { name, path } of mustRemain(keep)) {
    const dirName = name.replace("/", "+");
    let found = false;
    for await (const entry of Deno.readDir(store)) {
      if (!entry.name.startsWith(`${dirName}@`)) continue;
      found ||= await Deno.stat(join(store, entry.name, "node_modules", name, path))
        .then(() => true, () => false);
    }
    if (!found) missing.push(`${name}/${path}`);
  }
  if (missing.length) {
    console.error(`image_prune: files the app loads are missing: ${missing.join(", ")}`);
    Deno.exit(1);
  }
}
