// What each page costs a browser in JavaScript, compressed as it is served
// (the build's .gz files), following the page's real script graph: its
// <script type=module> tags, the island chunks the entry will import for the
// islands on that page, and every static import of those, once each.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_DIR, readManifest } from "../../src/assets/manifest.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import {
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  startTestApp,
  type TestApp,
} from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";

const KB = 1024;
/**
 * The budgets, gzip-compressed bytes. `tablet` holds the pages a client
 * holds (the intake, signed out or kiosk; the tablet selection; the online
 * quote page) and the signed-in intake, which adds the staff bar's search and
 * the Hand to client button: about 79–84 KB once react-query left the entry.
 */
const BUDGET = { signIn: 20 * KB, tablet: 85 * KB, builder: 160 * KB };
/** zod as the schemas use it, shaken; its full build is about 92 KB gzip. */
const ZOD_SHAKEN = 32 * KB;

const buildDir = fileURLToPath(BUILD_DIR);
// Static imports only (`import"./x.js"`, `import{a}from"./x.js"`, `export{a}from"./x.js"`);
// `import("./x.js")` is a dynamic import, loaded only when the page has that island.
const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["']\.\/([\w.-]+\.js)["']/g;

async function staticImports(file: string): Promise<string[]> {
  const source = await Deno.readTextFile(join(buildDir, file));
  return [...source.matchAll(STATIC_IMPORT)].map((m) => m[1]);
}

const fileOf = (url: string) => url.replace(/^\/static\/build\//, "");

/** Every JS file a page loads, and their gzip sizes. */
async function pageScripts(html: string, manifest: AssetManifest) {
  const roots = [...html.matchAll(/<script type="module"[^>]* src="([^"]+)"/g)].map((m) => m[1]);
  const islands = [...html.matchAll(/data-island="([A-Za-z0-9]+)"/g)].map((m) => m[1]);
  const queue = [...roots, ...islands.map((name) => manifest.islands[name])].map(fileOf);
  const files = new Set<string>();
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    queue.push(...await staticImports(file));
  }
  let gzip = 0;
  for (const file of files) gzip += (await Deno.stat(join(buildDir, `${file}.gz`))).size;
  return { files: [...files].sort(), islands, gzip };
}

let app: TestApp;
let manifest: AssetManifest;
let quoteId: string;
let staffCookie: string;
let ownerId: string;

before(async () => {
  [app, manifest] = await Promise.all([startTestApp(), readManifest()]);
  const owner = await createTestUser(app.db, { username: "olivia", role: "OWNER" });
  ownerId = owner.id;
  staffCookie = await sessionCookieFor(app.db, owner.id);
  ({ quoteId } = await insertSavedQuote(app.db));
});
after(async () => {
  await app.close();
});

async function html(path: string, cookie?: string): Promise<string> {
  const res = await fetch(app.baseUrl + path, {
    headers: { accept: "text/html", ...(cookie ? { cookie } : {}) },
  });
  expect([path, res.status]).toEqual([path, 200]);
  return await res.text();
}

/** The zod build's chunk(s): the files that define ZodError. */
async function zodChunks(): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const entry of Deno.readDir(buildDir)) {
    if (!entry.name.endsWith(".js")) continue;
    const source = await Deno.readTextFile(join(buildDir, entry.name));
    if (source.includes('"ZodError"')) out.add(entry.name);
  }
  return out;
}

describe("JavaScript per page, gzip-compressed as served", () => {
  it("the staff sign-in ships no React and no zod, within 20 KB", async () => {
    const page = await pageScripts(await html("/staff"), manifest);
    console.log(`sign-in: ${page.gzip} B gzip in ${page.files.length} files`);
    expect(page.islands).toEqual([]);
    expect(page.files).toContain(fileOf(manifest.scripts.signIn));
    expect(page.files).not.toContain(fileOf(manifest.entry));
    expect(page.gzip).toBeLessThanOrEqual(BUDGET.signIn);
  });

  it("the client's online quote page within 85 KB, with no zod", async () => {
    const zod = await zodChunks();
    const token = await createQuoteLink(app.db, {
      quoteId,
      quoteVersion: 1,
      sentTo: "client@example.com",
      createdBy: ownerId,
    });
    const page = await pageScripts(await html(`/q/${token}`), manifest);
    console.log(`online quote page: ${page.gzip} B gzip in ${page.files.length} files`);
    expect(page.islands).toEqual(["OnlineAccept"]);
    expect(page.files.filter((f) => zod.has(f))).toEqual([]);
    expect(page.gzip).toBeLessThanOrEqual(BUDGET.tablet);
  });

  it("the forgotten-password page, one field, ships no React and no zod, within 20 KB", async () => {
    const page = await pageScripts(await html("/forgot-password"), manifest);
    console.log(`forgot-password: ${page.gzip} B gzip in ${page.files.length} files`);
    expect(page.islands).toEqual([]);
    expect(page.files).toContain(fileOf(manifest.scripts.forgotPassword));
    expect(page.files).not.toContain(fileOf(manifest.entry));
    expect(page.gzip).toBeLessThanOrEqual(BUDGET.signIn);
  });

  it("the tablet pages (intake and tablet selection) within 85 KB, none with zod", async () => {
    const zod = await zodChunks();
    expect(zod.size).toBeGreaterThan(0);
    const intakeKiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: ownerId });
    const quoteKiosk = await kioskCookieFor(app.db, {
      kind: "QUOTE",
      quoteId,
      handedOverBy: ownerId,
    });
    const pages = {
      "intake, signed out": await html("/intake"),
      "intake, signed in": await html("/intake", staffCookie),
      "intake, kiosk": await html("/intake", intakeKiosk),
      "tablet, signed in": await html(`/tablet/${quoteId}`, staffCookie),
      "tablet, kiosk": await html(`/tablet/${quoteId}`, quoteKiosk),
      // What the service worker keeps to show the selection offline.
      "tablet, offline shell": await html(`/tablet/${quoteId}?shell=1`, quoteKiosk),
    };
    for (const [name, text] of Object.entries(pages)) {
      const page = await pageScripts(text, manifest);
      console.log(`${name}: ${page.gzip} B gzip in ${page.files.length} files`);
      expect([name, page.files.filter((f) => zod.has(f))]).toEqual([name, []]);
      expect([name, page.gzip <= BUDGET.tablet, page.gzip]).toEqual([name, true, page.gzip]);
    }
  });

  it("the quote builder within 160 KB", async () => {
    const page = await pageScripts(await html(`/quote/${quoteId}`, staffCookie), manifest);
    console.log(`builder: ${page.gzip} B gzip in ${page.files.length} files`);
    expect(page.islands).toContain("QuoteBuilder");
    expect(page.gzip).toBeLessThanOrEqual(BUDGET.builder);
  });

  // `import { z } from "zod"` keeps zod's whole namespace (every locale, JSON
  // Schema: about 92 KB gzip); `import * as z` lets the bundler keep only what
  // the schemas use. A page that loads zod gets that shared, shaken chunk.
  it("no staff page ships zod's full build", async () => {
    const zod = await zodChunks();
    const pages = [
      "/dashboard",
      "/clients",
      "/quotes",
      `/quote/${quoteId}`,
      "/admin",
      "/admin/users",
      "/admin/settings",
      "/account/password",
      "/reports",
    ];
    let pagesWithZod = 0;
    for (const path of pages) {
      const page = await pageScripts(await html(path, staffCookie), manifest);
      const zodFiles = page.files.filter((f) => zod.has(f));
      let zodGzip = 0;
      for (const file of zodFiles) zodGzip += (await Deno.stat(join(buildDir, `${file}.gz`))).size;
      console.log(`${path}: ${page.gzip} B gzip, of which zod ${zodGzip} B`);
      if (zodFiles.length) pagesWithZod++;
      expect([path, zodGzip <= ZOD_SHAKEN]).toEqual([path, true]);
      const source = (await Promise.all(zodFiles.map((f) => Deno.readTextFile(join(buildDir, f)))))
        .join("");
      // zod's German locale: present only when the whole namespace is bundled.
      expect([path, source.includes("Ung\\xFCltige Eingabe")]).toEqual([path, false]);
    }
    expect(pagesWithZod).toBeGreaterThan(3);
  });
});
