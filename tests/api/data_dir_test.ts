// One engine: always PGlite on disk in a DATA_DIR of its own, whichever engine the run is on.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { loadConfig } from "../../src/config/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";

// The embedded database and the secret key live in DATA_DIR: whoever else has
// an account on the machine must not read them. (The engine under test here
// is always PGlite on disk, whatever TEST_DATABASE_URL says.)

let root: string;

before(async () => {
  root = await Deno.makeTempDir({ prefix: "lensdesk-data-" });
});
after(async () => {
  await Deno.remove(root, { recursive: true });
});

/** path → permission bits, for the directory and everything under it. */
async function modes(dir: string): Promise<Map<string, number>> {
  const out = new Map([[dir, (await Deno.lstat(dir)).mode! & 0o777]]);
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) { for (const [p, m] of await modes(path)) out.set(p, m); }
    else out.set(path, (await Deno.lstat(path)).mode! & 0o777);
  }
  return out;
}

async function startLikeMain(dataDir: string) {
  const config = await loadConfig({ DATA_DIR: dataDir, PORT: "0" });
  const database = await openDatabase(undefined, config.dataDir);
  await migrateToLatest(database.db);
  return database;
}

function loose(found: Map<string, number>, root: string) {
  return [...found].filter(([path, mode]) => {
    const isDir = path === root || Deno.statSync(path).isDirectory;
    return mode !== (isDir ? 0o700 : 0o600);
  }).map(([path, mode]) => `${path.slice(root.length)} ${mode.toString(8)}`);
}

describe("DATA_DIR", { skip: Deno.build.os === "windows" }, () => {
  it("is created 0700 with every file 0600: database files and secret key", async () => {
    const dataDir = join(root, "fresh", "data");
    const database = await startLikeMain(dataDir);
    // Some files are written at start-up and some as the database works.
    await database.db.insertInto("heardHowOptions").values({ label: "Radio" }).execute();
    const found = await modes(dataDir);
    expect(found.size).toBeGreaterThan(100);
    expect(found.get(join(dataDir, "secret.key"))).toBe(0o600);
    expect(found.get(join(dataDir, "pgdata"))).toBe(0o700);
    expect(loose(found, dataDir)).toEqual([]);
    await database.close();
    expect(loose(await modes(dataDir), dataDir)).toEqual([]);

    // Left readable by an older version (or a copy): the next start tightens it,
    // and the files PGlite rewrites at each start come out private too.
    await Deno.chmod(dataDir, 0o755);
    await Deno.chmod(join(dataDir, "secret.key"), 0o644);
    await Deno.chmod(join(dataDir, "pgdata", "PG_VERSION"), 0o666);
    const again = await startLikeMain(dataDir);
    try {
      expect(loose(await modes(dataDir), dataDir)).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
