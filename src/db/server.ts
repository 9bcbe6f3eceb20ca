// A PostgreSQL server through node-postgres (`pg` and its pool) under
// Kysely's own PostgresDialect. Chosen over postgres.js on the fault tests
// (tests/faults/server_faults_test.ts, docs/operations.md): with postgres.js
// 3.4.x a connection the server closed under traffic threw from inside the
// driver (porsager/postgres#1154, #1208) and ended the process.
import { createHash } from "node:crypto";
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import { CamelCasePlugin } from "kysely";
import pg from "pg";
import type { Database } from "../../db/schema.ts";
import type { DatabaseHandle } from "./handle.ts";
import type { TableWrites } from "./table_writes.ts";
import { type DB, type PoolStats, watchedKysely } from "./watched.ts";

/** Connections of one app process to a PostgreSQL server. */
const POOL_MAX = 10;

/** Connections of the pool whose statements keep one plan: searches run one or two at a time. */
const GENERIC_POOL_MAX = 3;

/**
 * How long a request waits for a connection, its own connecting included.
 * While the server is away a new connection is refused at once; this bounds
 * the wait when the pool is busy or the server does not answer at all.
 */
const POOL_WAIT_MS = 5_000;

/**
 * A transaction left open by a stuck request would hold its locks (a job's
 * row, a quote's number) from everyone; the server ends such a session.
 */
const IDLE_IN_TRANSACTION_MS = 60_000;

/**
 * How long PostgreSQL lets one statement run before it cancels it (its
 * `statement_timeout`), per kind of work: a request's ordinary statements, and
 * the searches, which answer as the user types. 0 is no limit (the
 * command-line tasks: a backup's snapshot or a migration may take minutes).
 */
export interface StatementLimits {
  ordinaryMs: number;
  searchMs: number;
}

export const NO_LIMITS: StatementLimits = { ordinaryMs: 0, searchMs: 0 };

const genericPlansOf = new WeakMap<DB, DB>();

/**
 * Where a statement built to have one good plan for every value runs: on a
 * server, a pool that prepares each statement once per connection and reuses
 * one (generic) plan for it; elsewhere, `db` itself. PostgreSQL plans a
 * statement anew for its values once a table is large enough for values to
 * matter, and the capped searches (src/search/capped.ts) are written so that
 * they do not: their plan is the same for every word, and planning it again
 * would cost a large store more than the search itself (0.1-0.2 ms a
 * statement at 100,000 clients, where a 1,000-client store plans nothing).
 *
 * Every other statement goes to the server unnamed, and PostgreSQL plans an
 * unnamed statement for its values each time: a search whose best plan
 * depends on its words (`lower(last_name) like $1` reads an index range only
 * for a known prefix) never falls back to one generic plan under load.
 */
export function genericPlans(db: DB): DB {
  return genericPlansOf.get(db) ?? db;
}

/**
 * `date` columns read as a Date at UTC midnight, as PGlite reads them, so
 * both engines hand the app the same values (timestamps keep pg's parsing).
 */
const types = new pg.TypeOverrides();
types.setTypeParser(1082, (value: string) => new Date(value));

function newPool(url: string, init: {
  max: number;
  applicationName: string;
  statementTimeoutMs: number;
  planCacheMode?: "force_generic_plan";
}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: init.max,
    application_name: init.applicationName,
    statement_timeout: init.statementTimeoutMs || undefined,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    options: init.planCacheMode ? `-c plan_cache_mode=${init.planCacheMode}` : undefined,
    connectionTimeoutMillis: POOL_WAIT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    types,
  });
  // A connection the server closes (a restart, a failover, an administrator)
  // is an 'error' event on its client. pg-pool listens on idle clients only;
  // one with no listener would end the process. The query that was running
  // on it, if any, fails on its own; the pool drops the client.
  pool.on("connect", (client) => client.on("error", () => {}));
  pool.on("error", () => {});
  return pool;
}

/** A short stable name per statement text, for prepared statements. */
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = "l" + createHash("sha1").update(text).digest("hex").slice(0, 20);
    // Statement texts are made by code, so there are few; the cap is a guard.
    if (names.size >= 5_000) names.clear();
    names.set(text, name);
  }
  return name;
}

/** PostgreSQL's "cached plan must not change result type": the table changed under the statement. */
function isStalePlan(err: unknown): boolean {
  return (err as { code?: string })?.code === "0A000" &&
    /cached plan must not change result type/.test(String((err as Error).message));
}

/**
 * Statement texts the app's own pool prepares once per connection: fixed
 * lookups by a key, run on nearly every request (the session's), whose one
 * plan is right for every value. Unnamed, each would be parsed and planned
 * again per request, and node-postgres writes its Parse and Describe too.
 */
const preparedTexts = new Set<string>();

/**
 * Marks a compiled statement to be prepared on a server's main pool (PGlite
 * runs it as it is). Only for a lookup whose plan does not depend on its
 * values: a prepared statement may fall back to one generic plan.
 */
export function preparedOnServer<T extends { sql: string }>(compiled: T): T {
  preparedTexts.add(compiled.sql);
  return compiled;
}

/**
 * `pool` for Kysely, each single statement that `prepare` picks prepared once
 * per connection under a name made from its text (a script of several stays
 * unnamed: the extended protocol takes one statement).
 */
function preparingPool(pool: pg.Pool, prepare: (text: string) => boolean): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const query = async (client: pg.PoolClient, text: string, values: readonly unknown[]) => {
    if (text.includes(";") || !prepare(text)) return await client.query(text, values as unknown[]);
    const name = statementName(text);
    try {
      return await client.query({ name, text, values: values as unknown[] });
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      // A migration or a restore changed a table this statement reads: these
      // are reads outside any transaction, so prepare it again and rerun.
      await client.query(`DEALLOCATE ${name}`);
      const parsed = (client as unknown as { connection: { parsedStatements: object } })
        .connection.parsedStatements as Record<string, unknown>;
      delete parsed[name];
      return await client.query({ name, text, values: values as unknown[] });
    }
  };
  return {
    async connect() {
      const client = await pool.connect();
      let kept = wrapped.get(client);
      if (!kept) {
        kept = {
          query: (text: string, values: readonly unknown[]) => query(client, text, values),
          release: (destroy?: boolean) => client.release(destroy),
        } as unknown as PostgresPoolClient;
        // Kysely reads the backend's pid from its client (for cancelling).
        Object.defineProperty(kept, "processID", {
          get: () => (client as unknown as { processID?: number }).processID,
        });
        wrapped.set(client, kept);
      }
      return kept;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}

/** Connects on the first statement: opening never fails for a server that is away. */
export function openServer(
  databaseUrl: string,
  limits: StatementLimits = NO_LIMITS,
): DatabaseHandle {
  // Unique to this process, so the notices of its own writes can be told apart.
  const applicationName = `lensdesk ${crypto.randomUUID().slice(0, 8)}`;
  const pool = newPool(databaseUrl, {
    max: POOL_MAX,
    applicationName,
    statementTimeoutMs: limits.ordinaryMs,
  });
  const stats: PoolStats = { inUse: 0, waiting: 0, max: POOL_MAX };
  const { db, writes } = watchedKysely(
    new PostgresDialect({ pool: preparingPool(pool, (text) => preparedTexts.has(text)) }),
    stats,
  );
  const stopListening = listenForWrites(databaseUrl, applicationName, writes);
  // Reads only; its connections are not in `stats`, which counts the app's own.
  const genericPool = newPool(databaseUrl, {
    max: GENERIC_POOL_MAX,
    applicationName: `${applicationName} generic`,
    statementTimeoutMs: limits.searchMs,
    planCacheMode: "force_generic_plan",
  });
  const generic = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(genericPool, () => true) }),
    plugins: [new CamelCasePlugin()],
  });
  genericPlansOf.set(db, generic);
  return {
    db,
    kind: "server",
    pool: stats,
    raw: { engine: "postgres", pool },
    writes,
    async close() {
      await stopListening();
      await generic.destroy();
      await db.destroy();
      // Kysely ends a pool only once it has used it; a backup or a restore
      // uses `raw.pool` alone, whose idle client would hold the process 30 s.
      if (!pool.ended) await pool.end();
      if (!genericPool.ended) await genericPool.end();
    },
  };
}

/** The channel of migration 0017's triggers. */
const TABLE_WRITES_CHANNEL = "lensdesk_table_writes";

/** Waits before listening again after the listening connection was lost. */
const RELISTEN_MS = [250, 500, 1_000, 2_000, 5_000];

/**
 * Writes of other processes on the same server (replicas, CLIs, a restore)
 * arrive as notifications of migration 0017's triggers, "<table>
 * <application_name>", on a connection of its own. While it is not listening
 * (not yet, or lost with a restart of the server) nothing is kept; once it
 * listens again every kept read is dropped, for the notifications missed.
 */
function listenForWrites(
  url: string,
  applicationName: string,
  writes: TableWrites,
): () => Promise<void> {
  let stopped = false;
  let current: pg.Client | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  writes.pause();

  const again = () => {
    if (stopped) return;
    writes.pause();
    const wait = RELISTEN_MS[Math.min(failures++, RELISTEN_MS.length - 1)];
    timer = setTimeout(listen, wait);
    // The listener alone never keeps the process alive.
    Deno.unrefTimer(timer);
  };

  const listen = async () => {
    timer = undefined;
    const client = new pg.Client({
      connectionString: url,
      application_name: `${applicationName} listen`,
      keepAlive: true,
      connectionTimeoutMillis: POOL_WAIT_MS,
    });
    client.on("error", () => {});
    client.on("notification", ({ payload = "" }) => {
      const space = payload.indexOf(" ");
      const table = space < 0 ? payload : payload.slice(0, space);
      // This pool's own writes were recorded when their connection came back.
      if (space >= 0 && payload.slice(space + 1) === applicationName) return;
      writes.record([table]);
    });
    // The first of a lost connection's end and a failed connect schedules the next try.
    let retried = false;
    const retry = () => {
      if (retried) return;
      retried = true;
      if (current === client) current = undefined;
      again();
    };
    client.once("end", retry);
    try {
      await client.connect();
      await client.query(`LISTEN ${TABLE_WRITES_CHANNEL}`);
    } catch {
      retry();
      await client.end().catch(() => {});
      return;
    }
    if (stopped) return void await client.end().catch(() => {});
    current = client;
    failures = 0;
    writes.resume();
  };

  const first = listen();
  return async () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    await first;
    await current?.end().catch(() => {});
  };
}
