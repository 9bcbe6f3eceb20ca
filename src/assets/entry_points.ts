// The app's own entry points: every module a store runs directly (the server,
// the PDF renderer it starts, the `deno task` commands, the browser bundle's
// entries and its builder). `deno task start` installs the npm packages of
// these module graphs and no others: deno.json's "npm-lazy-caching" installs a
// package when a graph reaches it, instead of every package of the lock file,
// so the test-only packages among deno.json's imports (playwright-core,
// smtp-server, expect, ...) stay out of a store's first start. No npm import
// here: cli/start.ts reads this before anything is installed.
import { join } from "node:path";

/**
 * Page scripts that are not islands: plain modules a page asks for by name
 * (renderPage's `scripts`), sharing no React. The staff sign-in ships only
 * this, so its page stays a few kilobytes.
 */
export const PAGE_SCRIPTS: Record<string, string> = {
  signIn: "_sign_in.ts",
  forgotPassword: "_forgot_password.ts",
  forget: "_forget.ts",
};

/** The browser bundle's entries, in islands/. */
export const BROWSER_ENTRIES = ["_entry.tsx", ...Object.values(PAGE_SCRIPTS)];

/** What the server side runs, from the project's root. */
export const SERVER_ENTRIES = [
  "main.ts",
  "src/pdf/pdf_renderer.ts",
  "src/assets/build.ts",
  "cli/migrate.ts",
  "cli/seed.ts",
  "cli/backup.ts",
  "cli/restore.ts",
];

/**
 * Every entry point, as paths from `root`: the server's, the browser's, and
 * the migrations (loaded one by one at run time, so in no static graph).
 */
export async function appEntryPoints(root: string): Promise<string[]> {
  const migrations: string[] = [];
  for await (const entry of Deno.readDir(join(root, "db", "migrations"))) {
    if (entry.isFile && entry.name.endsWith(".ts")) migrations.push(`db/migrations/${entry.name}`);
  }
  return [
    ...SERVER_ENTRIES,
    ...BROWSER_ENTRIES.map((entry) => `islands/${entry}`),
    ...migrations.sort(),
  ];
}
