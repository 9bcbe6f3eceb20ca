// The container image as a store runs it: the project's Dockerfile built with
// podman on the stand-in deno base (tests/helpers/podman.ts), run read-only
// as its own user with the data on a volume, the embedded database in it.
// Only with LENSDESK_CONTAINER_TESTS=1 (.ci/run sets it for one suite run).
// Whatever happens (a step that fails or times out, a run killed before its
// after hook), nothing stays behind: every wait has a limit, the after hook
// removes the containers and the volume and fails if any is left, and a run
// first removes what a killed one left (its test process is gone).
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import {
  APP_IMAGE,
  buildAppImage,
  containerLog,
  containerTestsSkipped,
  dockerfileBase,
  imageSize,
  logEvents,
  podman,
  podmanOk,
  removeResources,
  removeStaleTestResources,
  waitForExit,
  waitForLogLine,
} from "../helpers/podman.ts";
import { call, passwordSignIn } from "../helpers/test_app.ts";
import { deadPort, mailSettingsFor, startSmtpServer } from "../helpers/smtp.ts";
import { createQuoteThroughApi, maximalClient, maximalOptions } from "../helpers/quote_fixture.ts";
import { childPidsOf } from "../../bench/proc.ts";
import { waitUntil } from "../helpers/wait.ts";
import { pdfPageTexts } from "../../src/pdf/pdf_text.ts";

/** The app layers' budget over the base image, in bytes (the issue's goal). */
const LAYERS_BUDGET = 60e6;
const OWNER = { username: "olivia", password: "container-pass-4821" };

describe("the container image", { skip: containerTestsSkipped }, () => {
  const name = `lensdesk-image-test-${Deno.pid}`;
  const volume = `${name}-data`;
  /** The one-off container that lists the image's files. */
  const listing = `${name}-listing`;
  const port = deadPort();
  const app = { baseUrl: `http://127.0.0.1:${port}` };
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let buildMs = 0;
  let cookie = "";
  let quoteId = "";

  /**
   * Runs the image as compose.yaml would, with what a test needs on top: the
   * host's network (the SMTP server is on its loopback), a port of its own,
   * and renderers that end a second after their last PDF.
   */
  async function start() {
    const left = await removeResources({ containers: [name] });
    if (left.length) throw new Error(`could not remove ${left.join(", ")}`);
    await podmanOk([
      "run",
      "--detach",
      "--name",
      name,
      "--read-only",
      "--network",
      "host",
      "--volume",
      `${volume}:/app/data`,
      "--env",
      "HOST=127.0.0.1",
      "--env",
      `PORT=${port}`,
      "--env",
      `APP_URL=${app.baseUrl}`,
      "--env",
      `OWNER_USERNAME=${OWNER.username}`,
      "--env",
      `OWNER_PASSWORD=${OWNER.password}`,
      "--env",
      "PDF_IDLE_MS=1000",
      APP_IMAGE,
    ]);
    // Its log says when it listens (or the wait fails as soon as it stops, with the log).
    await waitForLogLine(name, (l) => l.includes('"msg":"listening"'));
    const health = await fetch(`${app.baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
    await health.body?.cancel();
    expect(health.status).toBe(200);
  }

  /** The server process (tini's child) of the running container, as the host sees it. */
  async function serverPid(): Promise<number> {
    const init = Number((await podmanOk(["inspect", "--format", "{{.State.Pid}}", name])).trim());
    const [server] = await childPidsOf(init);
    return server;
  }

  before(async () => {
    await removeStaleTestResources();
    buildMs = (await buildAppImage()).ms;
    smtp = await startSmtpServer();
    await podmanOk(["volume", "create", volume]);
    await start();
  });

  after(async () => {
    await smtp?.close();
    const left = await removeResources({ containers: [name, listing], volumes: [volume] });
    // A leftover fails the run, by name, rather than staying unnoticed.
    if (left.length) throw new Error(`the image test left ${left.join(", ")} behind`);
  });

  it("is built in Docker's format with its health check, within 60 MB over its base", async () => {
    const healthcheck = JSON.parse(
      await podmanOk(["image", "inspect", "--format", "{{json .Config.Healthcheck}}", APP_IMAGE]),
    );
    expect(healthcheck.Test.join(" ")).toContain("/healthz");
    const added = (await imageSize(APP_IMAGE)) - (await imageSize(dockerfileBase().tag));
    console.log(
      `  image built in ${(buildMs / 1000).toFixed(1)} s; ` +
        `${(added / 1e6).toFixed(1)} MB over its base`,
    );
    expect(added).toBeLessThanOrEqual(LAYERS_BUDGET);
  });

  it("holds no test packages, npm cache, source maps or type declarations", async () => {
    const files = await podmanOk([
      "run",
      "--rm",
      "--name",
      listing,
      "--network",
      "none",
      "--entrypoint",
      "sh",
      APP_IMAGE,
      "-c",
      "ls /app/node_modules/.deno; ls -a /deno-dir; " +
      "find /app/node_modules/.deno -name '*.map' -o -name '*.d.ts' | head -3; cat /app/deno.json",
    ]);
    for (const pkg of ["playwright-core", "smtp-server", "oauth2-mock-server", "expect", "yaml"]) {
      expect(files).not.toMatch(new RegExp(`^${pkg}@`, "m"));
    }
    expect(files).toMatch(/^hono@/m);
    expect(files).not.toMatch(/^npm$/m);
    expect(files).not.toMatch(/\.(map|d\.ts)$/m);
    expect(files).not.toContain("playwright");
  });

  it("runs as deno (uid 1993) on a read-only root, with the data volume and /tmp writable", async () => {
    const out = await podmanOk([
      "exec",
      name,
      "sh",
      "-c",
      "id -u; touch /app/data/probe && echo data-ok; touch /tmp/probe && echo tmp-ok; " +
      "touch /app/probe 2>/dev/null || echo root-read-only",
    ]);
    expect(out.split("\n").filter(Boolean)).toEqual([
      "1993",
      "data-ok",
      "tmp-ok",
      "root-read-only",
    ]);
  });

  it("answers /healthz and /readyz", async () => {
    const health = await call(app, "GET", "/healthz");
    expect(health.status).toBe(200);
    const ready = await call<{ migrations: { status: string; pending: unknown[] } }>(
      app,
      "GET",
      "/readyz",
    );
    expect(ready.status).toBe(200);
    expect(ready.body.migrations).toMatchObject({ status: "ok", pending: [] });
  });

  it("signs the owner in", async () => {
    cookie = await passwordSignIn(app, OWNER.username, OWNER.password);
    const dashboard = await call<string>(app, "GET", "/dashboard", {
      cookie,
      headers: { accept: "text/html" },
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain("<html");
  });

  it("renders a quote PDF in a renderer process of its own", async () => {
    quoteId = (await createQuoteThroughApi(
      app,
      cookie,
      { ...maximalClient(), firstName: "Łukasiewicz", lastName: "Иванова" },
      maximalOptions(2),
    )).id;
    const res = await fetch(`${app.baseUrl}/api/quotes/${quoteId}/pdf`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    const text = (await pdfPageTexts(pdf)).join("\n");
    expect(text).toContain("Łukasiewicz");
    expect(text).toContain("Иванова");
    // The server's one child is the renderer, a deno process of its own.
    const [renderer] = await childPidsOf(await serverPid());
    expect(await Deno.readTextFile(`/proc/${renderer}/cmdline`)).toContain("pdf_renderer.ts");
  });

  it("sends a quote by e-mail to an SMTP server", async () => {
    const settings = await call(app, "PUT", "/api/admin/settings", {
      cookie,
      body: mailSettingsFor(smtp),
    });
    expect(settings.status).toBe(200);
    const sent = await call<{ status: string }>(app, "POST", `/api/quotes/${quoteId}/email`, {
      cookie,
      body: { email: "ana@example.com", note: "From the container." },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe("sent");
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(["ana@example.com"]);
    expect(mail.raw).toContain("From the container.");
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/);
  });

  it("passes its own HEALTHCHECK command", async () => {
    const check = await podman(["healthcheck", "run", name]);
    expect(check.stdout.trim()).toBe("");
    expect(check.code).toBe(0);
  });

  it("finishes a request in flight on SIGTERM, then ends its renderer and exits 0", async () => {
    // No renderer is left from the PDFs above (PDF_IDLE_MS), so the next PDF
    // starts one. Stopped as soon as it appears, it cannot answer: the request
    // is in flight for as long as the test wants.
    const server = await serverPid();
    await waitUntil(async () => (await childPidsOf(server)).length === 0, "the renderer ended");
    // Bounded like every wait here: a request that never ends fails the step, it does not
    // hang the run.
    const response = fetch(`${app.baseUrl}/api/quotes/${quoteId}/pdf`, {
      headers: { cookie },
      signal: AbortSignal.timeout(120_000),
    });
    // Awaited below; when a step before that fails, its failure is not the next test's.
    response.catch(() => {});
    // Stopped only once it runs the renderer: between its fork and its exec
    // the child is still a copy of the server, whose spawn waits for that exec
    // (a child stopped there froze the server, SIGTERM and all, on a busy machine).
    let renderer = 0;
    await waitUntil(async () => {
      [renderer] = await childPidsOf(server);
      if (renderer === undefined) return false;
      const cmdline = await Deno.readTextFile(`/proc/${renderer}/cmdline`).catch(() => "");
      return cmdline.includes("pdf_renderer.ts");
    }, "a renderer started for the PDF");
    Deno.kill(renderer, "SIGSTOP");
    try {
      await podmanOk(["kill", "--signal", "TERM", name]);
      // The log line as podman hands it over, not a poll of the whole log.
      await waitForLogLine(name, (l) => l.includes('"msg":"shutting down"'), 60_000);
    } finally {
      try {
        Deno.kill(renderer, "SIGCONT");
      } catch {
        // already gone (the container was stopped some other way)
      }
    }
    const res = await response;
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).slice(0, 5)))
      .toBe("%PDF-");
    // `podman wait`: until it exited, with its exit code.
    expect(await waitForExit(name, 120_000)).toBe(0);
    // In this order: the signal, the PDF's answer, the renderer, the database.
    const log = await containerLog(name);
    const at = (match: (l: string) => boolean) => log.findIndex(match);
    const shuttingDown = at((l) => l.includes('"msg":"shutting down"'));
    const answered = log.findIndex((l, i) =>
      i > shuttingDown && l.includes('"msg":"request"') &&
      l.includes(`/api/quotes/${quoteId}/pdf`) && l.includes('"status":200')
    );
    const renderersEnded = at((l) => l.includes('"msg":"pdf renderers ended"'));
    const stopped = at((l) => l.includes('"msg":"stopped"'));
    expect(shuttingDown).toBeGreaterThan(-1);
    expect(answered).toBeGreaterThan(shuttingDown);
    expect(renderersEnded).toBeGreaterThan(answered);
    expect(stopped).toBeGreaterThan(renderersEnded);
  });

  it("keeps the data on its volume across a new container", async () => {
    await start();
    const cookie = await passwordSignIn(app, OWNER.username, OWNER.password);
    const quote = await call(app, "GET", `/api/quotes/${quoteId}`, { cookie });
    expect(quote.status).toBe(200);
    // The SMTP password was stored encrypted with the key in /app/data: it still decrypts.
    const before = smtp.received.length;
    const test = await call(app, "POST", "/api/admin/test-email", {
      cookie,
      body: { email: "owner@store.test" },
    });
    expect(test.status).toBe(200);
    expect(smtp.received.length).toBe(before + 1);
    // The owner was created once, on the first start.
    expect(await logEvents(name, "first owner account created")).toEqual([]);
  });
});
