// One engine: the lock is PGlite's, on a DATA_DIR of its own whichever engine the run is on.
// The `deno task` commands that open the database, run while the app holds
// the embedded one (PGlite belongs to one process at a time): one line that
// says so and what to do, exit 1, never a stack trace. The embedded engine
// on purpose, whatever TEST_DATABASE_URL says: the lock is PGlite's.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { type AppProcess, projectRoot, startAppProcess } from "../helpers/process.ts";
import { seedEmptyCluster } from "../helpers/database.ts";

let dataDir: string;
let app: AppProcess | undefined;

before(async () => {
  dataDir = await Deno.makeTempDir({ prefix: "lensdesk-locked-" });
  await seedEmptyCluster(dataDir);
  app = await startAppProcess({ DATABASE_URL: "", DATA_DIR: dataDir });
});

after(async () => {
  await app?.kill();
  await Deno.remove(dataDir, { recursive: true });
});

/** `deno task --quiet NAME` on the app's DATA_DIR: exit code and stdout + stderr. */
async function task(name: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name],
    cwd: projectRoot,
    env: { DATABASE_URL: "", DATA_DIR: dataDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, text: decode(out.stdout) + decode(out.stderr) };
}

const inUse = (dir: string) =>
  `The embedded database in ${dir} is in use by another Lensdesk process. Stop it first ` +
  "(PGlite allows one process at a time), or use a PostgreSQL server (DATABASE_URL) to run " +
  "several.";

describe("deno task seed / migrate while the app runs on the embedded database", () => {
  it("seed says so in one line and exits 1", async () => {
    expect(await task("seed")).toEqual({ code: 1, text: `Seed failed: ${inUse(dataDir)}\n` });
  });

  it("migrate says so in one line and exits 1", async () => {
    expect(await task("migrate")).toEqual({
      code: 1,
      text: `Migrate failed: ${inUse(dataDir)}\n`,
    });
  });
});
