// compose.yaml as a store runs it, with Debian's podman-compose (1.0.3 on
// Debian 12) and the app image the image test builds, against local stand-ins
// of postgres:17 and caddy:2 (tests/helpers/podman.ts). The real compose.yaml
// runs unchanged, with no override file: the stand-ins carry the official
// names, and podman's default network gives the services their names. It is
// copied, byte for byte, into a folder of its own beside a fresh .env, since
// podman-compose reads .env only beside the first compose file and a
// developer's own .env must not count. podman-compose 1.0.3 ignores
// `profiles`, so each step names the services a profile adds, as read from
// compose.yaml. Only with LENSDESK_CONTAINER_TESTS=1 (.ci/run sets it).
// Whatever happens (a step that fails or times out, a run killed before its
// after hook), nothing stays behind: every wait has a limit, the after hook
// removes every container, pod, volume and network of the project and fails
// if any is left, and a run first removes what a killed one left.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { parse } from "yaml";
import {
  buildAppImage,
  containerTestsSkipped,
  ensureStandIn,
  logEvents,
  ownResources,
  podman,
  podmanOk,
  removeResources,
  removeStaleTestResources,
  run,
  waitForHttp,
  waitForLogLine,
} from "../helpers/podman.ts";
import { call, passwordSignIn } from "../helpers/test_app.ts";
import { projectRoot } from "../helpers/process.ts";
import { waitUntil } from "../helpers/wait.ts";

const composeText = Deno.readTextFileSync(join(projectRoot, "compose.yaml"));
const services = (parse(composeText, { merge: true }) as {
  services: Record<string, { profiles?: string[] }>;
}).services;
/** What `up` starts without a profile, and what `--profile NAME` adds. */
const inProfile = (profile?: string) =>
  Object.keys(services).filter((name) =>
    profile ? services[name].profiles?.includes(profile) : !services[name].profiles
  );

/** compose.yaml's defaults, which the .env below leaves as they are. */
const PORT = 8000;
const SITE_NAME = "lensdesk.localhost";

describe("the compose stack (podman-compose)", { skip: containerTestsSkipped }, () => {
  const project = `lensdeskcompose${Deno.pid}`;
  const app = { baseUrl: `http://127.0.0.1:${PORT}` };
  const container = (service: string) => `${project}_${service}_1`;
  let dir = "";
  let owner = { username: "", password: "" };
  let cookie = "";

  const compose = (args: string[]) => run("podman-compose", ["-p", project, ...args], { cwd: dir });
  async function composeOk(args: string[]) {
    const out = await compose(args);
    if (out.code !== 0) {
      throw new Error(`podman-compose ${args.join(" ")}: ${out.code}\n${out.stderr}${out.stdout}`);
    }
    return out.stdout;
  }

  /**
   * Removes every container (its anonymous volumes too: caddy:2 declares
   * /config), pod, volume and network of the project, whatever state it is in,
   * found by podman-compose's label and by name; returns what is still there.
   */
  async function removeStack(): Promise<string[]> {
    const label = `label=io.podman.compose.project=${project}`;
    const labelled = async (args: string[]) =>
      (await podmanOk([...args, "--filter", label])).split("\n").map((l) => l.trim())
        .filter(Boolean);
    const named = await ownResources(project);
    return await removeResources({
      containers: [
        ...new Set([
          ...await labelled(["ps", "--all", "--format", "{{.Names}}"]),
          ...named.containers!,
        ]),
      ],
      pods: named.pods,
      volumes: [
        ...new Set([
          ...await labelled(["volume", "ls", "--format", "{{.Name}}"]),
          ...named.volumes!,
        ]),
      ],
      // podman-compose names its network PROJECT_default: found by name.
      networks: named.networks,
    });
  }

  before(async () => {
    await removeStaleTestResources();
    await Promise.all([
      buildAppImage(),
      ensureStandIn("postgres"),
      ensureStandIn("caddy"),
    ]);
    for (const port of [PORT, 80, 443]) {
      try {
        Deno.listen({ hostname: "0.0.0.0", port }).close();
      } catch {
        throw new Error(`port ${port} is taken: the stack publishes it, as compose.yaml says`);
      }
    }
    dir = await Deno.makeTempDir({ prefix: "lensdesk-compose-" });
    await Deno.writeTextFile(join(dir, "compose.yaml"), composeText);
    const password = crypto.randomUUID().replaceAll("-", "");
    await Deno.writeTextFile(join(dir, ".env"), `POSTGRES_PASSWORD=${password}\n`);
  });

  after(async () => {
    const left = await removeStack();
    if (dir) await Deno.remove(dir, { recursive: true });
    // A leftover fails the run, by name, rather than staying unnoticed.
    if (left.length) throw new Error(`the compose test left ${left.join(", ")} behind`);
  });

  it("comes up from an .env holding only POSTGRES_PASSWORD, the owner's password in the log", async () => {
    await composeOk(["up", "-d", ...inProfile()]);
    // podman-compose 1.0.3 starts the app without waiting for the database's
    // health check; the app exits until the database answers and its
    // restart policy brings it back.
    await waitForHttp(`${app.baseUrl}/healthz`, { logOf: container("app") });
    const log = await composeOk(["logs", "app"]);
    const printed = /First owner account created\.\s+username: (\S+)\s+password: (\S+)/.exec(log);
    expect(printed).not.toBeNull();
    owner = { username: printed![1], password: printed![2] };
    expect(owner.username).toBe("owner");
  });

  it("passes compose.yaml's health checks of the database and the app", async () => {
    for (const service of inProfile()) {
      const check = await podman(["healthcheck", "run", container(service)]);
      expect({ service, out: check.stdout.trim(), code: check.code }).toEqual({
        service,
        out: "",
        code: 0,
      });
    }
  });

  it("signs the owner in through the app's port", async () => {
    cookie = await passwordSignIn(app, owner.username, owner.password);
    const me = await call<string>(app, "GET", "/dashboard", {
      cookie,
      headers: { accept: "text/html" },
    });
    expect(me.status).toBe(200);
  });

  it("backup profile: a nightly backup at once, which restores", async () => {
    const quote = async (firstName: string) =>
      (await call<{ quote: { id: string } }>(app, "POST", "/api/clients", {
        cookie,
        body: { firstName, lastName: "Backup" },
      })).body.quote.id;
    const kept = await quote("Before");
    await composeOk(["up", "-d", ...inProfile("backup")]);
    // The log line as podman hands it over (the wait fails at once if the service stops).
    const written = JSON.parse(
      await waitForLogLine(container("backup"), (l) => l.includes('"msg":"backup written"')),
    ) as { path?: string };
    const file = written.path!;
    expect(file).toMatch(/^\/backups\/lensdesk-server-\d{8}-\d{6}\.sql$/);
    const lost = await quote("After");

    // docs/operations.md, "Backups and restores": stop the app, load, start.
    await composeOk(["stop", "app"]);
    const restore = await compose([
      "run",
      "--rm",
      "-T",
      "--no-deps",
      "app",
      "deno",
      "task",
      "restore",
      file,
      "--force",
    ]);
    expect(restore.code).toBe(0);
    await composeOk(["start", "app"]);
    await waitForHttp(`${app.baseUrl}/healthz`, { logOf: container("app") });
    cookie = await passwordSignIn(app, owner.username, owner.password);
    expect((await call(app, "GET", `/api/quotes/${kept}`, { cookie })).status).toBe(200);
    expect((await call(app, "GET", `/api/quotes/${lost}`, { cookie })).status).toBe(404);
  });

  it("replicas profile: Caddy serves HTTPS on SITE_NAME from both app processes", async () => {
    // docs/operations.md, "More than one app process"; podman-compose 1.0.3 recreates a
    // container for a changed .env only when told to.
    await Deno.writeTextFile(join(dir, ".env"), `APP_URL=https://${SITE_NAME}\n`, {
      append: true,
    });
    await composeOk(["up", "-d", "--force-recreate", ...inProfile(), ...inProfile("replicas")]);
    const rootCert = join(dir, "caddy-root.crt");
    await waitUntil(
      async () =>
        (await podman([
          "cp",
          `${container("caddy")}:/data/caddy/pki/authorities/local/root.crt`,
          rootCert,
        ])).code === 0,
      "Caddy made its local CA",
      60_000,
      250,
    );
    const https = (path: string, init: { body?: unknown; cookie?: string } = {}) =>
      httpsThroughCaddy(path, rootCert, init);
    // Up behind Caddy with its database (its health checks need a few seconds): /readyz, not
    // /healthz, which answers before the recreated database does, and a sign-in then got 503.
    // Four in a row: round robin sends them to each process twice (one ready process was not
    // enough: the sign-in went to the other, still starting, and got 503).
    let readyInARow = 0;
    await waitUntil(
      async () => {
        readyInARow = (await https("/readyz")).status === 200 ? readyInARow + 1 : 0;
        return readyInARow >= 4;
      },
      "Caddy answers from both processes, each reaching its database",
      60_000,
      250,
    );
    const login = await https("/api/staff/login", {
      body: { username: owner.username, password: owner.password },
    });
    expect(login.status).toBe(200);
    const session = /^set-cookie: (__Host-lensdesk_session=[^;]+);.*Secure/im.exec(login.head);
    expect(session).not.toBeNull();
    // Round robin: signed-in pages come from both processes, one session for both.
    const served = async (service: string) =>
      (await logEvents(container(service), "request")).filter((e) =>
        e.path === "/dashboard" && e.status === 200 && e.user
      ).length;
    // Caddy sends to a process only once its /readyz answered: the second may
    // join a few requests late on a busy machine.
    await waitUntil(
      async () => {
        expect((await https("/dashboard", { cookie: session![1] })).status).toBe(200);
        return (await served("app")) > 0 && (await served("app-2")) > 0;
      },
      "both app processes served a signed-in page",
      60_000,
      100,
    );
  });

  it("goes down leaving no container, pod, volume or network behind", async () => {
    expect(await removeStack()).toEqual([]);
    const label = `label=io.podman.compose.project=${project}`;
    expect((await podmanOk(["ps", "--all", "--quiet", "--filter", label])).trim()).toBe("");
    expect((await podmanOk(["volume", "ls", "--quiet", "--filter", label])).trim()).toBe("");
    expect((await podman(["network", "exists", `${project}_default`])).code).not.toBe(0);
    expect(await ownResources(project)).toEqual({
      containers: [],
      pods: [],
      volumes: [],
      networks: [],
    });
  });
});

/**
 * A request to https://SITE_NAME/ through Caddy on this machine's port 443,
 * trusting Caddy's local CA: curl, since fetch cannot send a name that does
 * not resolve here to 127.0.0.1.
 */
async function httpsThroughCaddy(
  path: string,
  rootCert: string,
  init: { body?: unknown; cookie?: string },
): Promise<{ status: number; head: string; body: string }> {
  const args = [
    "--silent",
    "--show-error",
    "--resolve",
    `${SITE_NAME}:443:127.0.0.1`,
    "--cacert",
    rootCert,
    "--dump-header",
    "-",
  ];
  if (init.cookie) args.push("--header", `cookie: ${init.cookie}`);
  if (init.body !== undefined) {
    args.push("--header", "content-type: application/json", "--data", JSON.stringify(init.body));
  }
  const out = await run("curl", [...args, `https://${SITE_NAME}${path}`]);
  const [head = "", body = ""] = out.stdout.split(/\r\n\r\n/);
  const status = Number(/^HTTP\/\S+ (\d+)/.exec(head)?.[1] ?? 0);
  return { status, head, body };
}
