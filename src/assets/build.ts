// Builds the browser bundle: one entry that hydrates islands, a chunk per
// island, shared chunks, all minified with content-hashed names, plus the
// stylesheet under a hashed name. Skips the work when no source changed.
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { type AssetManifest, BUILD_DIR } from "./manifest.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const buildDir = fileURLToPath(BUILD_DIR);
const EXTRA_FILES = ["static/app.css", "deno.json", "deno.lock", "src/assets/build.ts"];
/**
 * Page scripts that are not islands: plain modules a page asks for by name
 * (renderPage's `scripts`), sharing no React. The staff sign-in ships only
 * this, so its page stays a few kilobytes.
 */
const PAGE_SCRIPTS: Record<string, string> = {
  signIn: "_sign_in.ts",
  forgotPassword: "_forgot_password.ts",
  forget: "_forget.ts",
};
const BROWSER_ENTRIES = ["_entry.tsx", ...Object.values(PAGE_SCRIPTS)];

/** Every local file the browser entries reach, as Deno's module graph lists it. */
async function entryGraphFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const entry of BROWSER_ENTRIES) {
    const { success, stdout } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", join(root, "islands", entry)],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!success) throw new Error(`deno info failed on islands/${entry}`);
    const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
      modules: { specifier: string }[];
    };
    files.push(
      ...graph.modules.map((m) => m.specifier).filter((s) => s.startsWith("file://"))
        .map((s) => fileURLToPath(s)),
    );
  }
  return [...new Set(files)];
}

function sha256Hex(data: Uint8Array | string): string {
  return encodeHexLowerCase(
    sha256(typeof data === "string" ? new TextEncoder().encode(data) : data),
  );
}

async function listFiles(path: string): Promise<string[]> {
  const abs = join(root, path);
  const stat = await Deno.stat(abs).catch(() => null);
  if (!stat) return [];
  if (stat.isFile) return [abs];
  const out: string[] = [];
  for await (const entry of Deno.readDir(abs)) {
    out.push(...await listFiles(join(path, entry.name)));
  }
  return out;
}

async function sourceHash(): Promise<string> {
  const files = [
    ...await entryGraphFiles(),
    ...await listFiles("static/css"),
    ...EXTRA_FILES.map((f) => join(root, f)),
  ].sort();
  const parts: string[] = [];
  for (const file of files) {
    const content = await Deno.readFile(file).catch(() => new Uint8Array());
    parts.push(`${relative(root, file)}:${sha256Hex(content)}`);
  }
  return sha256Hex(parts.join("\n"));
}

async function readExisting(): Promise<AssetManifest | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(join(buildDir, "manifest.json")));
  } catch {
    return undefined;
  }
}

/**
 * The one stylesheet: static/app.css (tokens and shared components) followed by
 * each screen's static/css/*.css in name order.
 */
async function stylesheet(): Promise<Uint8Array> {
  const parts = [await Deno.readTextFile(join(root, "static", "app.css"))];
  const screens = (await listFiles("static/css")).filter((f) => f.endsWith(".css")).sort();
  for (const file of screens) {
    parts.push(`/* ${relative(root, file)} */\n${await Deno.readTextFile(file)}`);
  }
  return new TextEncoder().encode(parts.join("\n"));
}

export async function buildAssets(options: { force?: boolean; quiet?: boolean } = {}) {
  const hash = await sourceHash();
  const existing = await readExisting();
  if (!options.force && existing?.sourceHash === hash) {
    if (!options.quiet) console.log("Browser bundle is up to date.");
    return existing;
  }
  const staging = join(root, "static", `.build-${crypto.randomUUID()}`);
  const cmd = new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform=browser",
      "--code-splitting",
      "--minify",
      "--outdir",
      staging,
      ...BROWSER_ENTRIES.map((entry) => join(root, "islands", entry)),
    ],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  const { success } = await cmd.output();
  if (!success) throw new Error("deno bundle failed");

  // Chunks already carry esbuild's hash; the entries get one from their content.
  const hashName = async (base: string) => {
    const source = await Deno.readFile(join(staging, `${base}.js`));
    const name = `${base}-${(sha256Hex(source)).slice(0, 12)}.js`;
    await Deno.rename(join(staging, `${base}.js`), join(staging, name));
    return name;
  };
  const entryName = await hashName("_entry");
  const scripts: Record<string, string> = {};
  for (const [name, file] of Object.entries(PAGE_SCRIPTS)) {
    scripts[name] = `/static/build/${await hashName(file.replace(/\.tsx?$/, ""))}`;
  }
  const css = await stylesheet();
  const cssName = `app-${(sha256Hex(css)).slice(0, 12)}.css`;
  await Deno.writeFile(join(staging, cssName), css);

  const islands: Record<string, string> = {};
  for await (const entry of Deno.readDir(staging)) {
    const match = /^([A-Z][A-Za-z0-9]*)-[A-Z0-9]+\.js$/.exec(entry.name);
    if (match) islands[match[1]] = `/static/build/${entry.name}`;
  }
  const manifest: AssetManifest = {
    sourceHash: hash,
    entry: `/static/build/${entryName}`,
    css: `/static/build/${cssName}`,
    islands,
    scripts,
  };
  // Served precompressed: zod alone is ~450 KB raw and ~90 KB gzipped.
  for await (const entry of Deno.readDir(staging)) {
    if (!/\.(js|css)$/.test(entry.name)) continue;
    const data = await Deno.readFile(join(staging, entry.name));
    await Deno.writeFile(
      join(staging, `${entry.name}.br`),
      brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    await Deno.writeFile(join(staging, `${entry.name}.gz`), gzipSync(data, { level: 9 }));
  }
  // Content-hashed files are added beside the old ones, then the manifest is
  // swapped in one rename: a server (or test) still using the previous build
  // keeps finding its files. Files no build has used for an hour are pruned.
  await Deno.mkdir(buildDir, { recursive: true });
  for await (const entry of Deno.readDir(staging)) {
    await Deno.rename(join(staging, entry.name), join(buildDir, entry.name));
  }
  await Deno.remove(staging, { recursive: true });
  const tmpManifest = join(buildDir, `.manifest-${crypto.randomUUID()}.json`);
  await Deno.writeTextFile(tmpManifest, JSON.stringify(manifest, null, 2));
  await Deno.rename(tmpManifest, join(buildDir, "manifest.json"));
  await pruneOldFiles(manifest);
  if (!options.quiet) {
    console.log(`Built browser bundle: ${Object.keys(islands).length} islands, ${entryName}`);
  }
  return manifest;
}

async function pruneOldFiles(manifest: AssetManifest) {
  const keep = new Set(
    [
      manifest.entry,
      manifest.css,
      ...Object.values(manifest.islands),
      ...Object.values(manifest.scripts),
    ].map((u) => u.split("/").pop()),
  );
  const cutoff = Date.now() - 60 * 60 * 1000;
  for await (const entry of Deno.readDir(buildDir)) {
    const base = entry.name.replace(/\.(br|gz)$/, "");
    if (entry.name === "manifest.json" || keep.has(base)) continue;
    const stat = await Deno.stat(join(buildDir, entry.name)).catch(() => null);
    if (stat?.mtime && stat.mtime.getTime() < cutoff) {
      await Deno.remove(join(buildDir, entry.name)).catch(() => {});
    }
  }
}

if (import.meta.main) {
  await buildAssets({ force: Deno.args.includes("--force") });
}
