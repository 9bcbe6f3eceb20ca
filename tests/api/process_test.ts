// One engine: main.ts as a process, on a database of its own (a copy of the run's server's
// template, else PGlite in memory) or on addresses of its own: a second run would repeat the
// same processes.
import { describe, it } from "node:test";
import { expect } from "expect";
import { type AppProcess, projectRoot, startAppProcess } from "../helpers/process.ts";
import { childPidsOf, isAlive } from "../../bench/proc.ts";
import { waitUntil } from "../helpers/wait.ts";
import { createMigratedTestDatabase } from "../helpers/database.ts";

/** Signs in as the owner and makes one quote PDF, which starts a renderer process. */
async function makeQuotePdf(app: AppProcess) {
  const base = app.baseUrl;
  const json = { "content-type": "application/json", origin: base };
  const login = await fetch(`${base}/api/staff/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ username: "olivia", password: "s3cret-pass" }),
  });
  expect(login.status).toBe(200);
  await login.body?.cancel();
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const created = await fetch(`${base}/api/clients`, {
    method: "POST",
    headers: { ...json, cookie },
    body: JSON.stringify({ firstName: "Łukasiewicz", lastName: "Иванова" }),
  });
  const { quote } = await created.json();
  const res = await fetch(`${base}/api/quotes/${quote.id}/pdf`, { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  await res.body?.cancel();
}

/** The first owner makeQuotePdf signs in as. */
const OWNER = { OWNER_USERNAME: "olivia", OWNER_PASSWORD: "s3cret-pass" };

/** An app process on a migrated database of its own, dropped once the process is gone. */
async function withApp(env: Record<string, string>, use: (app: AppProcess) => Promise<void>) {
  const database = await createMigratedTestDatabase();
  try {
    const app = await startAppProcess({ ...env, DATABASE_URL: database.url });
    try {
      await use(app);
    } finally {
      await app.kill();
    }
  } finally {
    await database.drop();
  }
}

describe("main.ts as a process", () => {
  it("starts, creates the first owner once, logs requests, and stops cleanly on SIGTERM", async () => {
    await withApp(OWNER, async (app) => {
      expect(app.seen.some((l) => l.includes('"msg":"first owner account created"'))).toBe(true);
      const health = await fetch(`${app.baseUrl}/healthz`);
      expect(health.status).toBe(200);
      const requestId = health.headers.get("x-request-id");
      await health.body?.cancel();
      const log = JSON.parse(await app.waitForLine((l) => l.includes('"msg":"request"')));
      expect(log).toMatchObject({
        level: "info",
        method: "GET",
        path: "/healthz",
        status: 200,
        reqId: requestId,
      });
      expect(typeof log.ms).toBe("number");

      // A quote PDF starts a PDF renderer process; SIGTERM ends it with the server.
      await makeQuotePdf(app);
      const renderers = await childPidsOf(app.child.pid);
      expect(renderers).toHaveLength(1);
      expect(await isAlive(renderers[0])).toBe(true);
      const status = await app.stop();
      const ended = JSON.parse(
        await app.waitForLine((l) => l.includes('"msg":"pdf renderers ended"')),
      );
      expect(ended.workers).toBe(1);
      await app.waitForLine((l) => l.includes('"msg":"stopped"'));
      expect(status.code).toBe(0);
      expect(await isAlive(renderers[0])).toBe(false);
    });
  });

  it("leaves no PDF renderer behind when the server is killed outright", async () => {
    // SIGKILL runs no shutdown: the renderer sees its stdin close and exits by itself.
    await withApp(OWNER, async (app) => {
      await makeQuotePdf(app);
      const [renderer] = await childPidsOf(app.child.pid);
      expect(await isAlive(renderer)).toBe(true);
      await app.kill();
      await waitUntil(async () => !(await isAlive(renderer)), "the renderer has exited", 10_000);
    });
  });

  it("writes one readable line per event with LOG_FORMAT=text", async () => {
    await withApp({ LOG_FORMAT: "text" }, async (app) => {
      const res = await fetch(`${app.baseUrl}/healthz`);
      const requestId = res.headers.get("x-request-id");
      await res.body?.cancel();
      const line = await app.waitForLine((l) => l.includes(" request GET /healthz"));
      expect(line).toMatch(
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z INFO  request GET /healthz 200 \\d+ms reqId=${requestId}$`,
        ),
      );
    });
  });
});

/** main.ts run to its end with `env`: exit code and every line it printed. */
async function startFailing(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    cwd: projectRoot,
    env: { PORT: "0", LOG_FORMAT: "text", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, lines: text.split("\n").filter((l) => l.trim() !== "") };
}

/** The one line a failed start prints, without its time stamp. */
const problem = (lines: string[]) => {
  expect(lines).toHaveLength(1);
  return lines[0].replace(/^\S+ ERROR /, "");
};

describe("main.ts refusing to start", () => {
  it("says in one line a try that the database cannot be reached yet, and waits for it", async () => {
    // tests/faults/server_faults_test.ts has it serve once the server is up.
    const app = await startAppProcess({
      DATABASE_URL: "postgres://lensdesk:pw@127.0.0.1:1/lensdesk",
      DATA_DIR: await Deno.makeTempDir(),
      LOG_FORMAT: "text",
    }, { listening: false });
    try {
      const first = await app.waitForLine((l) => l.includes("waiting for the database"));
      expect(first.replace(/^\S+ WARN +/, "")).toBe(
        "waiting for the database: Cannot reach the database lensdesk on 127.0.0.1:1 " +
          "(connection refused): check DATABASE_URL and that the database server is running. " +
          "Trying again in 1 s.",
      );
      await app.waitForLine((l) => l.endsWith("Trying again in 2 s."));
      expect(app.seen).toHaveLength(2);
    } finally {
      await app.kill();
    }
  });

  it("says so when the data folder cannot be written", async () => {
    // /sys refuses new folders even to root, as a read-only volume would.
    const { code, lines } = await startFailing({ DATA_DIR: "/sys/lensdesk-data" });
    expect(code).toBe(1);
    expect(problem(lines)).toMatch(
      /^cannot start: The data folder \/sys\/lensdesk-data cannot be written \(.+\): give the app's user write access to it/,
    );
  });

  it("says so when another process holds the embedded database", async () => {
    const dataDir = await Deno.makeTempDir();
    const lock = await Deno.open(`${dataDir}/pgdata.lock`, { create: true, write: true });
    try {
      expect(await lock.tryLock(true)).toBe(true);
      const { code, lines } = await startFailing({ DATA_DIR: dataDir });
      expect(code).toBe(1);
      expect(problem(lines)).toBe(
        `cannot start: The embedded database in ${dataDir} is in use by another Lensdesk ` +
          "process. Stop it first (PGlite allows one process at a time), or use a PostgreSQL " +
          "server (DATABASE_URL) to run several.",
      );
    } finally {
      lock.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  });

  it("says so when the port is taken", async () => {
    const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = (taken.addr as Deno.NetAddr).port;
      const { code, lines } = await startFailing({
        DATABASE_URL: "memory://",
        PORT: String(port),
      });
      expect(code).toBe(1);
      expect(problem(lines)).toBe(
        `cannot start: Port ${port} on 127.0.0.1 is already in use by another program: ` +
          "stop that program, or set PORT to a free port.",
      );
    } finally {
      taken.close();
    }
  });
});
