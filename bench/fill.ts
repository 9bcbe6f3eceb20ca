// The bench's two stores, filled before anything is timed.
//
// Two stores side by side: the full one, and one of SMALL clients that the
// searches are compared with. Timed in turns, both sizes see the same
// machine: on a shared machine a minute of someone else's work doubled one
// size's figures when the sizes were timed one after the other. On a server
// the small store is a database the bench makes beside BENCH_DATABASE_URL's
// (and drops at the end), embedded it is a second data directory. A quick run
// has one store: both sizes are SMALL.
import { sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrate.ts";
import { createSession } from "../src/auth/session.ts";
import { insertUser } from "../src/users/users.ts";
import { BENCH_SHAPE, fillStore } from "./store.ts";
import { token } from "./session.ts";
import { STORES } from "./mode.ts";

export interface Store {
  url: string | undefined;
  dir: string;
}

/** The sibling database of the small store: "<name>_small", made here, refused when it exists. */
export async function makeSmallDatabase(url: string, dataDir: string) {
  const sibling = new URL(url);
  sibling.pathname = `${sibling.pathname.replace(/^\//, "")}_small`;
  const name = sibling.pathname.slice(1);
  const admin = await openDatabase(url, dataDir);
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.db);
  } catch (error) {
    throw new Error(
      `The bench makes a database "${name}" for its 1,000-client store beside ` +
        `BENCH_DATABASE_URL's and could not (it needs CREATEDB, and no database of that name)`,
      { cause: error },
    );
  } finally {
    await admin.close();
  }
  return sibling.toString();
}

/** Drops the small store's database, through the full store's server. */
export async function dropSmallDatabase(small: Store, large: Store) {
  if (small === large || !large.url || !small.url) return;
  const name = new URL(small.url).pathname.slice(1);
  const admin = await openDatabase(large.url, large.dir);
  try {
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
  } finally {
    await admin.close();
  }
}

export async function openStore(store: Store): Promise<DatabaseHandle> {
  if (!store.url) await Deno.mkdir(store.dir, { recursive: true });
  return await openDatabase(store.url, store.dir);
}

/** Seconds of each step of a fill (bench/store.ts), and of the vacuum and checkpoint after it. */
export interface FillTimes {
  seconds: number;
  rows: number;
  indexes: number;
  vacuum: number;
}

/** Fills clients from+1 … to, with a progress line, then brings statistics up to date. */
async function grow(db: DatabaseHandle["db"], from: number, to: number): Promise<FillTimes> {
  const started = performance.now();
  let lap = started;
  const laps: number[] = [];
  const next = () => {
    const now = performance.now();
    laps.push((now - lap) / 1000);
    lap = now;
  };
  const encoder = new TextEncoder();
  const line = (text: string) => Deno.stderr.writeSync(encoder.encode(text));
  const since = () => ((performance.now() - started) / 1000).toFixed(0);
  await fillStore(db, from, to, BENCH_SHAPE, (done) => {
    line(
      `\rfilling: ${(from + done).toLocaleString("en-US")} / ${
        to.toLocaleString("en-US")
      } clients (${since()} s)`,
    );
  }, (step) => {
    next();
    line(`; ${step} (${since()} s)`);
  });
  next();
  line(`; done (${since()} s)\n`);
  // A server's autovacuum would do this after a bulk load, and the
  // checkpointer would write the load out over the next minutes; the bench
  // measures the settled store, not the minutes after the load, so both are
  // done here before anything is timed.
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);
  next();
  const [rows, indexes, vacuum] = laps;
  return { seconds: (performance.now() - started) / 1000, rows, indexes, vacuum };
}

/** A port nobody listens on: the e-mail call renders, queues and tries once, refused at once. */
const closedPort = (() => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
})();

/** Migrates an empty store, signs the bench's owner in with its token and points its mail at closedPort. */
export async function prepare(store: Store) {
  const setup = await openStore(store);
  try {
    await migrateToLatest(setup.db);
    const existing = await setup.db.selectFrom("clients")
      .select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    if (Number(existing.n) > 0) {
      throw new Error("The bench needs an empty database (it fills its own store).");
    }
    // A chain: the install's store and STORES - 1 more, among which the fill spreads the clients.
    await setup.db.insertInto("stores").values(
      Array.from({ length: STORES - 1 }, (_, i) => ({
        code: `S${String(i + 2).padStart(2, "0")}`,
        name: `Store ${i + 2}`,
      })),
    ).execute();
    const user = await insertUser(setup.db, {
      username: `bench-${crypto.randomUUID().slice(0, 8)}`,
      role: "OWNER",
      passwordHash: null,
      firstName: "Bench",
    });
    await createSession(setup.db, token, user.id);
    await setup.db.updateTable("settings").set({
      smtpHost: "127.0.0.1",
      smtpPort: closedPort,
      smtpFromEmail: "bench@example.com",
      smtpAllowInsecure: true,
    }).where("id", "=", 1).execute();
  } finally {
    await setup.close();
  }
}

export async function fill(store: Store, clients: number) {
  const db = await openStore(store);
  try {
    return await grow(db.db, 0, clients);
  } finally {
    await db.close();
  }
}
