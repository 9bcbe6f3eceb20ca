// The app (main.ts, as a child process) rides through what a PostgreSQL
// server does to its connections: terminated under traffic, a restart (fast
// and immediate), not there yet at start-up, a statement held past its
// limit. Each runs on a throwaway cluster of its own (tests/helpers/
// pg_cluster.ts), so the server the rest of the suite uses is not touched.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { clusterSkip, type PgCluster, startPgCluster } from "../helpers/pg_cluster.ts";
import { type AppProcess, startAppProcess } from "../helpers/process.ts";
import { openDatabase } from "../../src/db/database.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { call } from "../helpers/test_app.ts";
import { waitUntil } from "../helpers/wait.ts";

const OWNER = { username: "olivia", password: "owner-pass-123" };
/** The test app's statement limit: short, so the statement-timeout test is quick. */
const STATEMENT_LIMIT_MS = 2_000;
/** No request may take longer than this to be answered, whatever the server does. */
const ANSWER_LIMIT_MS = 15_000;

let cluster: PgCluster;
let dataDir: string;
let app: AppProcess;
let cookie: string;
const orderIds: string[] = [];
let exited = false;

function appEnv(): Record<string, string> {
  return {
    DATABASE_URL: cluster.urlFor("lensdesk"),
    DATA_DIR: dataDir,
    OWNER_USERNAME: OWNER.username,
    OWNER_PASSWORD: OWNER.password,
    LOG_REQUESTS: "0",
    DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_LIMIT_MS),
    DB_SEARCH_TIMEOUT_MS: String(STATEMENT_LIMIT_MS),
  };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  ms: number;
  body: string;
}

/** One request with a bound: a request past ANSWER_LIMIT_MS fails the test, naming it. */
async function send(method: string, path: string, init: {
  body?: unknown;
  key?: string;
} = {}): Promise<Answer | "no answer"> {
  const started = performance.now();
  const headers: Record<string, string> = { cookie, accept: "application/json" };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.key) headers["idempotency-key"] = init.key;
  try {
    const res = await fetch(app.baseUrl + path, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
    });
    const body = await res.text();
    return {
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      ms: performance.now() - started,
      body,
    };
  } catch (err) {
    if ((err as Error).name === "TimeoutError") {
      throw new Error(`${method} ${path} was not answered within ${ANSWER_LIMIT_MS} ms`);
    }
    // The app process itself went away: nothing answers any more.
    return "no answer";
  }
}

/** What the clients saw, for the checks after a run. */
interface Traffic {
  /** Names this run's payments apart from the other runs'. */
  run: string;
  statuses: Map<number, number>;
  /** Payments answered 201, by Idempotency-Key: each must be in the database once. */
  paid: Map<string, { orderId: string; note: string }>;
  unavailable: Answer[];
  slowestMs: number;
}

function newTraffic(): Traffic {
  const run = crypto.randomUUID().slice(0, 8);
  return { run, statuses: new Map(), paid: new Map(), unavailable: [], slowestMs: 0 };
}

function note(traffic: Traffic, answer: Answer | "no answer") {
  if (answer === "no answer") throw new Error("the app process stopped answering");
  traffic.statuses.set(answer.status, (traffic.statuses.get(answer.status) ?? 0) + 1);
  traffic.slowestMs = Math.max(traffic.slowestMs, answer.ms);
  if (answer.status === 503) traffic.unavailable.push(answer);
  if (answer.status >= 500 && answer.status !== 503) {
    throw new Error(`answered ${answer.status}: ${answer.body}`);
  }
}

/**
 * A payment of 1.00 sent until it is answered: again with the same key after
 * a 503 (or a 409 while its first try still runs), as the order page does.
 */
async function pay(traffic: Traffic, orderId: string, label: string) {
  const key = crypto.randomUUID();
  const body = { amount: "1.00", method: "CARD", note: label };
  for (let attempt = 0;; attempt++) {
    const answer = await send("POST", `/api/orders/${orderId}/payments`, { body, key });
    note(traffic, answer);
    if (answer !== "no answer" && answer.status === 201) {
      traffic.paid.set(key, { orderId, note: label });
      return;
    }
    if (answer !== "no answer" && ![503, 409].includes(answer.status)) {
      throw new Error(`payment refused with ${answer.status}: ${answer.body}`);
    }
    if (attempt > 200) throw new Error(`payment ${label} never answered 201`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `clients` loops of reads and payments until `stop` resolves. */
async function runTraffic(clients: number, stop: Promise<void>, traffic: Traffic) {
  let stopped = false;
  stop.then(() => stopped = true);
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    const orderId = orderIds[c % orderIds.length];
    for (let i = 0; !stopped; i++) {
      if (i % 3 === 0) note(traffic, await send("GET", `/api/orders/${orderId}`));
      else if (i % 3 === 1) note(traffic, await send("GET", "/api/orders?limit=20"));
      else await pay(traffic, orderId, `client ${traffic.run} ${c} payment ${i}`);
    }
  }));
}

/** Every answered payment is in the database exactly once, and every payment is whole. */
async function checkPayments(traffic: Traffic) {
  const rows = (await cluster.psql(
    `SELECT note, count(*) FROM payments WHERE note LIKE 'client %' GROUP BY note`,
    "lensdesk",
  )).trim().split("\n").filter(Boolean).map((l) => l.split("|"));
  const counts = new Map(rows.map(([n, c]) => [n, Number(c)]));
  const missing = [...traffic.paid.values()].filter((p) => counts.get(p.note) !== 1);
  expect(missing).toEqual([]);
  // Twice is never right, answered or not.
  expect(rows.filter(([, c]) => Number(c) > 1)).toEqual([]);
  // A payment and its history line are one transaction: both or neither.
  const unmatched = await cluster.psql(
    `SELECT o.id FROM orders o
     WHERE (SELECT count(*) FROM payments p WHERE p.order_id = o.id)
        <> (SELECT count(*) FROM audit_log a WHERE a.entity_id = o.id::text AND a.action = 'order.payment')`,
    "lensdesk",
  );
  expect(unmatched.trim()).toBe("");
}

async function readyz(): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(app.baseUrl + "/readyz", {
    signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
  });
  return { status: res.status, body: await res.json() };
}

async function waitUntilServing() {
  await waitUntil(async () => (await readyz()).status === 200, "the app serves again", 30_000);
}

describe("the app and its PostgreSQL server's faults", { skip: clusterSkip() }, () => {
  before(async () => {
    cluster = await startPgCluster();
    await cluster.psql("CREATE DATABASE lensdesk");
    dataDir = await Deno.makeTempDir({ prefix: "lensdesk-faults-" });
    app = await startAppProcess(appEnv());
    app.child.status.then(() => exited = true);
    const login = await call(app, "POST", "/api/staff/login", { body: OWNER });
    expect(login.status).toBe(200);
    cookie = login.headers.get("set-cookie")!.split(";")[0];
    const lab = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
      cookie,
      body: { name: "Essilor Dallas", email: "orders@lab.test", turnaroundDays: 3 },
    });
    expect(lab.status).toBe(201);
    // Eight finalized quotes of 189.00, each made an order through the API.
    const handle = await openDatabase(cluster.urlFor("lensdesk"), dataDir);
    const quotes = [];
    try {
      for (let i = 0; i < 8; i++) {
        quotes.push(await insertSavedQuote(handle.db, { status: "FINALIZED", firstName: `C${i}` }));
      }
    } finally {
      await handle.close();
    }
    for (const quote of quotes) {
      const order = await call<{ order: { id: string } }>(
        app,
        "POST",
        `/api/quotes/${quote.quoteId}/order`,
        { cookie, body: { labId: lab.body.id, optionIds: [quote.optionIds[0]] } },
      );
      expect(order.status).toBe(201);
      orderIds.push(order.body.order.id);
    }
  });

  after(async () => {
    await app?.kill();
    await cluster?.destroy();
    if (dataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  });

  it("rides through its connections terminated by the server under 8 clients", async () => {
    const traffic = newTraffic();
    let terminated = 0;
    let done!: () => void;
    const stop = new Promise<void>((r) => done = r);
    const load = runTraffic(8, stop, traffic);
    // The server ends every connection of the app, again and again: for 6 s at
    // least, and on until more than 50 were ended, some requests were told to
    // try again and more than 20 payments went through between them (a loaded
    // machine pays fewer in 6 s), a minute at most.
    const started = Date.now();
    const enough = () =>
      Date.now() - started >= 6_000 && terminated > 50 && traffic.paid.size > 20 &&
      traffic.unavailable.length > 0;
    while (!enough() && Date.now() - started < 60_000 && !exited) {
      terminated += Number(
        await cluster.psql(
          `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
           WHERE application_name LIKE 'lensdesk %' AND pid <> pg_backend_pid()`,
        ),
      );
      await new Promise((r) => setTimeout(r, 150));
    }
    done();
    await load;
    console.log(
      `terminated ${terminated} connections; answers ${
        JSON.stringify(Object.fromEntries(traffic.statuses))
      }; ${traffic.paid.size} payments; slowest answer ${Math.round(traffic.slowestMs)} ms`,
    );
    expect(exited).toBe(false);
    expect(terminated).toBeGreaterThan(50);
    // Some requests met a dead connection and were told to try again...
    expect(traffic.unavailable.length).toBeGreaterThan(0);
    for (const answer of traffic.unavailable) expect(answer.retryAfter).toBe("5");
    // ...and many went through.
    expect(traffic.paid.size).toBeGreaterThan(20);
    await waitUntilServing();
    await checkPayments(traffic);
  });

  for (const mode of ["fast", "immediate"] as const) {
    it(`answers 503 while the server restarts (${mode} shutdown) and serves again without a restart of its own`, async () => {
      const traffic = newTraffic();
      let done!: () => void;
      const stop = new Promise<void>((r) => done = r);
      const load = runTraffic(4, stop, traffic);
      await waitUntil(() => traffic.paid.size >= 5, "payments go through before the restart");
      await cluster.stop(mode);
      // While the server is away: 503 with Retry-After, and /readyz says why.
      const away = await send("GET", `/api/orders/${orderIds[0]}`);
      expect(away !== "no answer" && [away.status, away.retryAfter]).toEqual([503, "5"]);
      const ready = await readyz();
      expect([ready.status, ready.body.database]).toEqual([503, "unreachable"]);
      const page = await fetch(`${app.baseUrl}/orders`, { headers: { cookie } });
      expect([page.status, page.headers.get("retry-after")]).toEqual([503, "5"]);
      expect(await page.text()).toContain("Back in a moment");
      await waitUntil(() => traffic.unavailable.length >= 4, "the clients are told to wait");
      await cluster.start();
      const back = performance.now();
      await waitUntilServing();
      // Within seconds of the server's return.
      expect(performance.now() - back).toBeLessThan(10_000);
      const paidBefore = traffic.paid.size;
      await waitUntil(() => traffic.paid.size > paidBefore + 5, "payments go through again");
      done();
      await load;
      expect(exited).toBe(false);
      await checkPayments(traffic);
    });
  }

  it("cancels a statement past its limit and keeps its connection for others", async () => {
    // Another session holds the payments table: every payment waits on it.
    const locker = new Deno.Command("psql", {
      args: [
        "-X",
        "-q",
        "-d",
        cluster.urlFor("lensdesk"),
        "-c",
        "BEGIN; LOCK TABLE payments IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60);",
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      await waitUntil(
        async () =>
          (await cluster.psql(
            `SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
             WHERE c.relname = 'payments' AND l.mode = 'AccessExclusiveLock' AND l.granted`,
            "lensdesk",
          )).trim() === "1",
        "the lock is held",
      );
      // More waiting payments than the pool has connections.
      const started = performance.now();
      const answers = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) =>
            send("POST", `/api/orders/${orderIds[i % orderIds.length]}/payments`, {
              body: { amount: "1.00", method: "CASH", note: `held ${i}` },
              key: crypto.randomUUID(),
            }),
        ),
      );
      for (const answer of answers) {
        if (answer === "no answer") throw new Error("no answer");
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body).message).toMatch(/took too long/);
      }
      // Each was stopped at the limit (the last of them after two rounds of the pool).
      expect(performance.now() - started).toBeLessThan(3 * STATEMENT_LIMIT_MS + 5_000);
      // The lock is still held, and the pool's connections are free for other work.
      const labs = await send("GET", "/api/labs");
      expect(labs !== "no answer" && labs.status).toBe(200);
      const waiting = await cluster.psql(
        `SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'lensdesk %'
         AND wait_event_type = 'Lock'`,
      );
      expect(waiting.trim()).toBe("0");
    } finally {
      locker.kill("SIGKILL");
      await locker.status;
    }
    await cluster.psql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'psql'
       AND pid <> pg_backend_pid()`,
    );
    const traffic = newTraffic();
    await pay(traffic, orderIds[0], `client ${traffic.run} after the lock`);
    await checkPayments(traffic);
    expect(exited).toBe(false);
  });

  it("waits for a server that is not there at start-up, saying so in one line, and serves once it is", async () => {
    await app.kill();
    await cluster.stop("fast");
    const waiting = await startAppProcess(appEnv(), { listening: false });
    try {
      const line = await waiting.waitForLine((l) => /waiting for the database/.test(l));
      expect(line).toContain("connection refused");
      expect(line).toContain("Trying again in 1 s.");
      // A second try, later, and nothing but these lines (no stack trace).
      await waiting.waitForLine((l) => /Trying again in 2 s/.test(l));
      expect(waiting.seen.filter((l) => !/waiting for the database/.test(l))).toEqual([]);
      await cluster.start();
      await waiting.listening();
      app = waiting;
      await waitUntilServing();
      const order = await send("GET", `/api/orders/${orderIds[0]}`);
      expect(order !== "no answer" && order.status).toBe(200);
    } catch (err) {
      await waiting.kill();
      throw err;
    }
  });
});
