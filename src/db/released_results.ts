import type postgres from "postgres";

/*
 * Rows handed over, not kept. postgres.js answers a query by resolving the
 * query itself, a Promise subclass, with its Result (an Array of the rows).
 * Under Deno (2.9) a Promise subclass resolved in a socket's round trip stays
 * reachable from the old generation until V8's next full collection, where a
 * plain Promise dies in the young one: reproduced without postgres.js (a
 * Promise subclass made and resolved per round trip over node:net keeps 12% of
 * the young generation alive through each scavenge, a plain Promise 0.6%).
 * With the query, its Result and every row it holds were promoted: a loop of
 * the quotes-list search at 100,000 clients (39 rows) promoted 22.5 MB in 4 s,
 * 3.0 MB with the Result emptied; in the server, scavenges of 5-11 ms and a
 * full collection every 1.6 s lengthened every search's tail, the more rows
 * the more (the quotes search's p95 growth from 1,000 to 100,000 clients
 * 1.46x against 1.19-1.32x with the Result emptied, back to back).
 *
 * So the driver Kysely uses (kysely-postgres-js, which copies the rows out of
 * the Result it awaits) gets queries whose answer is the rows moved into a
 * new array, the Result left empty: the query that outlives its answer holds
 * nothing of it. Everything else (cursor, cancel, state) is the query's own.
 */

/** `sql` for Kysely's postgres.js driver: its reserved connections' queries hand their rows over. */
export function releasingResults(sql: postgres.Sql): postgres.Sql {
  return replacing(sql, "reserve", async () => releasingConnection(await sql.reserve()));
}

function releasingConnection(reserved: postgres.ReservedSql): postgres.ReservedSql {
  return replacing(
    reserved,
    "unsafe",
    (...args: Parameters<postgres.ReservedSql["unsafe"]>) => handingOver(reserved.unsafe(...args)),
  );
}

/** `target` with `key` answered by `by`, everything else its own. */
function replacing<T extends object>(target: T, key: keyof T, by: unknown): T {
  return new Proxy(target, {
    get: (own, k) => k === key ? by : Reflect.get(own, k, own),
  });
}

/** The query, but awaiting it gives its rows moved out of its Result (see above). */
function handingOver<Q extends Promise<unknown>>(query: Q): Q {
  return new Proxy(query, {
    get(target, key) {
      if (key === "then") {
        return (
          onAnswer?: (value: unknown) => unknown,
          onError?: (reason: unknown) => unknown,
        ) => target.then(handOver).then(onAnswer, onError);
      }
      const value = Reflect.get(target, key, target);
      // Its methods see the query itself: postgres.js finds it by identity (cancel).
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A single statement's Result as a new array of the same rows and figures,
 * the Result emptied. Several statements' Results (a simple query) are
 * answered as they are: Kysely never sends those.
 */
export function handOver<R>(result: R): R {
  if (!(result instanceof Array) || typeof (result as { command?: unknown }).command !== "string") {
    return result;
  }
  const { count, command, columns, statement, state } = result as unknown as postgres.RowList<
    postgres.Row[]
  >;
  // splice answers a plain Array (Result's species) and leaves the Result empty.
  return Object.assign(result.splice(0, result.length), {
    count,
    command,
    columns,
    statement,
    state,
  }) as R;
}
