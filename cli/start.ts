// `deno task start`: a fresh clone's first start, each slow step announced in
// one short line before it runs, then the app.
//   1. The npm packages the app runs: its own entry points' module graphs
//      (src/assets/entry_points.ts), never the test-only packages of
//      deno.json's imports (deno.json's "npm-lazy-caching" installs what a
//      graph reaches, not the whole lock file). Quiet: one line on a first
//      install instead of one per package. Also what `deno task migrate`,
//      `backup` and `restore` (--cached-only) find cached afterwards.
//   2. The browser bundle (src/assets/build.ts; skipped when nothing changed).
//   3. main.ts, in this process (as cli/dev.ts runs it): it opens the database
//      (creating it on a first start), migrates it, listens, and prints the
//      address to sign in at.
// No npm import here: nothing may be installed before step 1 says so.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { appEntryPoints } from "../src/assets/entry_points.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const say = (line: string) => console.log(`Lensdesk: ${line}`);
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

async function run(args: string[]): Promise<boolean> {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return success;
}

if (!await exists(join(root, "node_modules", ".deno"))) {
  say("installing the npm packages the app runs (first start only; a minute at most)...");
}
if (!await run(["install", "--quiet", "--entrypoint", ...await appEntryPoints(root)])) {
  say("the npm packages could not be installed (the reason is above).");
  Deno.exit(1);
}

if (
  !await run([
    "run",
    "--allow-read",
    "--allow-write",
    "--allow-run",
    "--allow-env",
    join(root, "src", "assets", "build.ts"),
  ])
) {
  say("the browser bundle could not be built (the reason is above).");
  Deno.exit(1);
}

const databaseUrl = Deno.env.get("DATABASE_URL");
if (databaseUrl === "memory://") {
  say("starting on a throwaway in-memory database...");
} else if (databaseUrl) {
  say("connecting to the database server (DATABASE_URL) and bringing its tables up to date...");
} else {
  const dataDir = Deno.env.get("DATA_DIR") || "./data";
  say(
    await exists(join(dataDir, "pgdata"))
      ? `opening the database in ${dataDir} and bringing its tables up to date...`
      : `creating the database in ${dataDir} and its tables (first start; about 10 s)...`,
  );
}
// Not a static import: the app's modules load after the lines above.
await import(new URL("../main.ts", import.meta.url).href);
