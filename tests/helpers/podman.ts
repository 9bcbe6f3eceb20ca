// podman as it runs on this machine, and the images the container tests use
// (tests/container/). No container registry is reachable here, so the base
// images the Dockerfile and compose.yaml name are stand-ins built from
// Debian's packages (tests/container/stand_ins/) and tagged with the
// official names, which the real Dockerfile and compose.yaml then find in
// podman's storage. Everything built is kept there, so the next run rebuilds
// nothing that did not change: the Debian base is made once, each stand-in
// again only when its recipe changes (a label holds the recipe's hash), and
// the app image reuses podman's layer cache.
import { join } from "node:path";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { parse } from "yaml";
import { projectRoot } from "./process.ts";

/**
 * What podman needs on this machine: runc with cgroupfs (there is no
 * systemd), and limits lower than its defaults (a container may only lower
 * the machine's). One file for every podman call, podman-compose's included.
 */
const CONTAINERS_CONF = `[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
`;

/** The environment every podman and podman-compose call runs with, and nothing else. */
export async function podmanEnv(): Promise<Record<string, string>> {
  // One file for every test process: the same few lines each time.
  const confFile = join(Deno.env.get("TMPDIR") ?? "/tmp", "lensdesk-containers.conf");
  if (await Deno.readTextFile(confFile).catch(() => "") !== CONTAINERS_CONF) {
    await Deno.writeTextFile(confFile, CONTAINERS_CONF);
  }
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    CONTAINERS_CONF: confFile,
  };
}

export interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The longest one command may take (an image build on a busy machine included):
 * past it the command is killed and the step fails, and the test file's after
 * hooks clean up, instead of the run hanging until something kills it whole.
 */
const COMMAND_LIMIT_MS = 20 * 60_000;

/** What run() takes besides the command. */
export interface RunOptions {
  cwd?: string;
  stdin?: Uint8Array;
  /** Kill the command after this long (COMMAND_LIMIT_MS when not given). */
  timeoutMs?: number;
}

/** Runs a command with podmanEnv() and returns its output, whatever its exit code. */
export async function run(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<Output> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    env: await podmanEnv(),
    clearEnv: true,
    stdin: options.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? COMMAND_LIMIT_MS),
  }).spawn();
  if (options.stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(options.stdin);
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    // podman logs an error for every health check it cannot hand to systemd's
    // timers (there is no systemd here); the checks themselves run on request.
    stderr: decoder.decode(out.stderr).split("\n")
      .filter((l) => !l.includes("/run/systemd/private")).join("\n"),
  };
}

/** Like run(), but throws with the command's error output unless it succeeds; returns stdout. */
export async function runOk(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<string> {
  const out = await run(cmd, args, options);
  if (out.code !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited with ${out.code}:\n${out.stderr}${out.stdout}`,
    );
  }
  return out.stdout;
}

export const podman = (args: string[], options?: RunOptions) => run("podman", args, options);
export const podmanOk = (args: string[], options?: RunOptions) => runOk("podman", args, options);

/** Fails with what to install when podman, podman-compose or debootstrap is missing. */
export async function requireTools() {
  const missing: string[] = [];
  for (const tool of ["podman", "podman-compose", "debootstrap", "runc"]) {
    const found = await run("sh", ["-c", `command -v ${tool}`]);
    if (found.code !== 0) missing.push(tool);
  }
  if (missing.length) {
    throw new Error(
      `The container tests need ${missing.join(", ")}: ` +
        "apt-get install podman podman-compose runc debootstrap (.ci/run does)",
    );
  }
}

export async function imageExists(tag: string): Promise<boolean> {
  return (await podman(["image", "exists", tag])).code === 0;
}

/** An image's label, or "" when it or the label is missing. */
async function imageLabel(tag: string, label: string): Promise<string> {
  const out = await podman(["image", "inspect", "--format", `{{ index .Labels "${label}" }}`, tag]);
  return out.code === 0 ? out.stdout.trim().replace(/^<no value>$/, "") : "";
}

/** An image's size in bytes, as podman counts it (its layers, uncompressed). */
export async function imageSize(tag: string): Promise<number> {
  return Number((await podmanOk(["image", "inspect", "--format", "{{.Size}}", tag])).trim());
}

/** The Debian release of the stand-ins' base: trixie has PostgreSQL 17, as postgres:17 does. */
export const DEBIAN_SUITE = "trixie";
export const DEBIAN_BASE = `localhost/debian:${DEBIAN_SUITE}-minbase`;

/** The Debian mirror apt uses on this machine. */
async function debianMirror(): Promise<string> {
  const files = ["/etc/apt/sources.list"];
  try {
    for (const entry of Deno.readDirSync("/etc/apt/sources.list.d")) {
      files.push(`/etc/apt/sources.list.d/${entry.name}`);
    }
  } catch {
    // no such folder: sources.list alone
  }
  for (const file of files) {
    const text = await Deno.readTextFile(file).catch(() => "");
    const uri = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text)?.[1];
    if (uri) return uri;
  }
  return "http://deb.debian.org/debian";
}

/**
 * The Debian base of every stand-in: debootstrap's minbase, without apt's
 * lists and the docs (as Debian's slim images), imported into podman.
 * Made once; later runs find it in podman's storage.
 */
export function ensureDebianBase(): Promise<boolean> {
  debianBase ??= oneAtATime("debian-base", makeDebianBase);
  return debianBase;
}

/**
 * Runs `make` while holding a lock file that every test process shares: the
 * test files run in parallel processes, and two of them building the same
 * image at once would do the work twice or tag half-made images. The second
 * then finds the image made and reuses it.
 */
async function oneAtATime<T>(name: string, make: () => Promise<T>): Promise<T> {
  const lock = await Deno.open(join("/var/tmp", `lensdesk-podman-${name}.lock`), {
    create: true,
    write: true,
  });
  try {
    await lock.lock(true);
    return await make();
  } finally {
    lock.close();
  }
}

let debianBase: Promise<boolean> | undefined;

async function makeDebianBase(): Promise<boolean> {
  await requireTools();
  if (await imageExists(DEBIAN_BASE)) return false;
  const dir = await Deno.makeTempDir({ prefix: "lensdesk-debootstrap-", dir: "/var/tmp" });
  try {
    const root = join(dir, "root");
    await runOk("debootstrap", ["--variant=minbase", DEBIAN_SUITE, root, await debianMirror()]);
    await runOk("sh", [
      "-c",
      'cd "$0" && rm -rf var/lib/apt/lists/* var/cache/apt/*.bin usr/share/doc/* ' +
      "usr/share/man/* usr/share/info/* usr/share/locale/*",
      root,
    ]);
    await runOk("sh", [
      "-c",
      'tar -C "$0" -c . | podman import --change "CMD [\\"bash\\"]" - "$1"',
      root,
      DEBIAN_BASE,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return true;
}

const read = (name: string) => Deno.readTextFileSync(join(projectRoot, name));

/** The base image the Dockerfile builds FROM, with its ARG default filled in. */
export function dockerfileBase(): { tag: string; denoVersion: string } {
  const dockerfile = read("Dockerfile");
  const denoVersion = /^ARG DENO_VERSION=(\S+)$/m.exec(dockerfile)![1];
  const from = /^FROM (\S+) AS build$/m.exec(dockerfile)![1]
    .replace("${DENO_VERSION}", denoVersion);
  return { tag: qualified(from), denoVersion };
}

/** An image of compose.yaml's service, as podman names it. */
export function composeImage(service: string): string {
  const doc = parse(read("compose.yaml"), { merge: true }) as {
    services: Record<string, { image: string }>;
  };
  return qualified(doc.services[service].image);
}

/** "postgres:17" as the fully qualified name Docker and podman give it. */
function qualified(name: string): string {
  const slash = name.split("/");
  if (slash.length > 2 || /[.:]/.test(slash[0]) && slash.length > 1) return name;
  return slash.length === 1 ? `docker.io/library/${name}` : `docker.io/${name}`;
}

export type StandIn = "deno" | "postgres" | "caddy";

/** The official image each stand-in takes the place of, as the project's files name it. */
export function standInTag(name: StandIn): string {
  if (name === "deno") return dockerfileBase().tag;
  return composeImage(name === "postgres" ? "db" : "caddy");
}

const STAND_INS = join(projectRoot, "tests/container/stand_ins");

/**
 * Builds a stand-in unless podman already holds one made from the same
 * recipe (its files, build arguments and base). Returns whether it built.
 */
export async function ensureStandIn(name: StandIn): Promise<boolean> {
  await ensureDebianBase();
  return await oneAtATime(`stand-in-${name}`, () => makeStandIn(name));
}

async function makeStandIn(name: StandIn): Promise<boolean> {
  const tag = standInTag(name);
  const dir = join(STAND_INS, name);
  const buildArgs: Record<string, string> = {
    BASE: DEBIAN_BASE,
    ...(name === "deno" ? { DENO_VERSION: dockerfileBase().denoVersion } : {}),
    // postgres:17 gets PostgreSQL 17: the tag's major version picks the package.
    ...(name === "postgres" ? { PG_MAJOR: tag.split(":").at(-1)!.split(".")[0] } : {}),
  };
  const parts = [
    name,
    JSON.stringify(buildArgs),
    (await podmanOk(["image", "inspect", "--format", "{{.Id}}", DEBIAN_BASE])).trim(),
  ];
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    parts.push(entry.name, Deno.readTextFileSync(join(dir, entry.name)));
  }
  if (name === "deno") parts.push(await Deno.readTextFile(caBundle()));
  const recipe = encodeHexLowerCase(sha256(new TextEncoder().encode(parts.join("\0"))));
  if (await imageLabel(tag, "lensdesk.stand-in") === recipe) return false;

  const context = await Deno.makeTempDir({ prefix: `lensdesk-${name}-` });
  try {
    for (const entry of Deno.readDirSync(dir)) {
      await Deno.copyFile(join(dir, entry.name), join(context, entry.name));
    }
    if (name === "deno") {
      await Deno.copyFile(caBundle(), join(context, "ca-certificates.crt"));
      await denoBinary(buildArgs.DENO_VERSION, join(context, "deno"));
    }
    await runOk("podman", [
      "build",
      // A failed build's intermediate containers go too, not only a finished one's.
      "--force-rm",
      "--format",
      "docker",
      // Package downloads (apt) use the machine's network as they are.
      "--network",
      "host",
      "--label",
      `lensdesk.stand-in=${recipe}`,
      ...Object.entries(buildArgs).flatMap(([k, v]) => ["--build-arg", `${k}=${v}`]),
      "--tag",
      tag,
      context,
    ]);
  } finally {
    await Deno.remove(context, { recursive: true });
  }
  return true;
}

/**
 * The machine's CA bundle, which the deno stand-in carries: package downloads
 * here pass a TLS proxy whose certificate only that bundle vouches for.
 */
function caBundle(): string {
  return Deno.env.get("SSL_CERT_FILE") || "/etc/ssl/certs/ca-certificates.crt";
}

/** The linux-x64 deno binary of the npm package, as `npm install deno` gets it. */
async function denoBinary(version: string, to: string) {
  const dir = await Deno.makeTempDir({ prefix: "lensdesk-deno-npm-" });
  try {
    const name = (await runOk("npm", [
      "pack",
      "--silent",
      `@deno/linux-x64-glibc@${version}`,
      "--pack-destination",
      dir,
    ])).trim().split("\n").at(-1)!;
    await runOk("tar", ["-xzf", join(dir, name), "-C", dir, "package/deno"]);
    await Deno.copyFile(join(dir, "package/deno"), to);
    await Deno.chmod(to, 0o755);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The tag compose.yaml gives the app image, which the image test builds once for both tests. */
export const APP_IMAGE = "localhost/lensdesk:local";

let appImage: Promise<{ ms: number }> | undefined;

/**
 * The project's Dockerfile built as compose.yaml's app image, in Docker's
 * format (OCI drops HEALTHCHECK), on the deno stand-in. Once per test
 * process; podman's layer cache makes an unchanged rebuild quick.
 */
export function buildAppImage(): Promise<{ ms: number }> {
  appImage ??= (async () => {
    await ensureStandIn("deno");
    return await oneAtATime("app-image", buildImage);
  })();
  return appImage;
}

async function buildImage(): Promise<{ ms: number }> {
  const started = performance.now();
  await podmanOk([
    "build",
    // A failed build's intermediate containers go too, not only a finished one's.
    "--force-rm",
    "--format",
    "docker",
    "--network",
    "host",
    "--tag",
    APP_IMAGE,
    projectRoot,
  ]);
  // The build stage of each earlier source is kept as an untagged image
  // (the layer cache); those older than a day go.
  await podman(["image", "prune", "--force", "--filter", "until=24h"]);
  return { ms: performance.now() - started };
}

/**
 * Why the container tests are skipped, or false when they run. They build
 * images and start containers (minutes, not seconds): .ci/run turns them on
 * with LENSDESK_CONTAINER_TESTS=1 for one of its two suite runs.
 */
export const containerTestsSkipped: false | string =
  Deno.env.get("LENSDESK_CONTAINER_TESTS") === "1"
    ? false
    : "set LENSDESK_CONTAINER_TESTS=1 to build and run the image with podman (.ci/run does)";

/** A container's log, its standard output and error, one entry per line. */
export async function containerLog(name: string): Promise<string[]> {
  const out = await podmanOk(["logs", name]);
  return out.split("\n").filter(Boolean);
}

/** The JSON log lines of a container whose `msg` is `msg`. */
export async function logEvents(name: string, msg: string): Promise<Record<string, unknown>[]> {
  return (await containerLog(name)).filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === msg);
}

/** Whether a container is running (false once it has exited or is gone). */
export async function isRunning(name: string): Promise<boolean> {
  const out = await podman(["inspect", "--format", "{{.State.Running}}", name]);
  return out.code === 0 && out.stdout.trim() === "true";
}

/**
 * Waits until `url` answers 200. With `container`, fails early, with its log,
 * once that container has stopped; without, only at the deadline (a stack
 * whose app restarts until its database is up).
 */
export async function waitForHttp(
  url: string,
  options: { container?: string; logOf?: string; timeoutMs?: number } = {},
) {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  // podman inspect is a process of its own: asked once a second, not at every try.
  let inspected = 0;
  while (true) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(10_000) }).then(async (r) => {
      await r.body?.cancel();
      return r.ok;
    }, () => false);
    if (ok) return;
    const inspect = options.container !== undefined && Date.now() - inspected >= 1000;
    if (inspect) inspected = Date.now();
    const stopped = inspect && !(await isRunning(options.container!));
    if (stopped || Date.now() > deadline) {
      const name = options.container ?? options.logOf;
      const log = name ? await containerLog(name).catch(() => []) : [];
      throw new Error(`${url} did not answer 200:\n${log.slice(-30).join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits for the first line of a container's log (standard output and error)
 * that matches, as podman hands it over (`podman logs --follow`): no polling.
 * Fails, with the log's last lines, when the container stops first (the
 * stream ends) or after `timeoutMs`.
 */
export async function waitForLogLine(
  name: string,
  match: (line: string) => boolean,
  timeoutMs = 120_000,
): Promise<string> {
  const child = new Deno.Command("podman", {
    args: ["logs", "--follow", name],
    env: await podmanEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const seen: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lines = async (stream: ReadableStream<Uint8Array>): Promise<string | undefined> => {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      buffer += decoder.decode(chunk, { stream: true });
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        seen.push(line);
        if (match(line)) return line;
      }
    }
    return undefined;
  };
  const out = lines(child.stdout);
  const err = lines(child.stderr);
  const never = new Promise<never>(() => {});
  const matched = Promise.race([out.then((l) => l ?? never), err.then((l) => l ?? never)]);
  // Both streams read to their end without a match: the container stopped.
  const ended = Promise.all([out, err]).then(([a, b]) => {
    const line = a ?? b;
    if (line === undefined) throw new Error(`${name} stopped`);
    return line;
  });
  // Either may settle after the race, as the follower is killed: not an unhandled rejection.
  matched.catch(() => {});
  ended.catch(() => {});
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([matched, ended, limit]);
  } catch (err) {
    throw new Error(
      `no matching line in the log of ${name} (${(err as Error).message}):\n` +
        seen.slice(-30).join("\n"),
    );
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await child.status;
  }
}

/** Waits (`podman wait`, no polling of ours) until a container has exited; its exit code. */
export async function waitForExit(name: string, timeoutMs = 120_000): Promise<number> {
  const out = await podmanOk(["wait", name], { timeoutMs });
  return Number(out.trim());
}

/**
 * What the container tests make carries its test process's id in its name
 * (lensdesk-image-test-PID…, the compose project lensdeskcomposePID and
 * podman-compose's PROJECT_…, pod_PROJECT): whose it is, and so whether the
 * process that made it is still there to remove it.
 */
const OWNED = /^(?:pod_)?(?:lensdesk-image-test-|lensdeskcompose)(\d+)(?:\D|$)/;

const alive = (pid: number) => Deno.stat(`/proc/${pid}`).then(() => true, () => false);

/** Names of podman's containers, pods, volumes and networks, by kind. */
async function listAll() {
  const names = async (args: string[]) =>
    (await podmanOk(args)).split("\n").map((l) => l.trim()).filter(Boolean);
  return {
    containers: await names(["ps", "--all", "--format", "{{.Names}}"]),
    pods: await names(["pod", "ps", "--format", "{{.Name}}"]),
    volumes: await names(["volume", "ls", "--format", "{{.Name}}"]),
    networks: await names(["network", "ls", "--format", "{{.Name}}"]),
  };
}

export interface Resources {
  containers?: string[];
  pods?: string[];
  volumes?: string[];
  networks?: string[];
}

/**
 * Removes containers (stopped at once, their anonymous volumes with them),
 * then pods, volumes and networks, whatever state they are in, and checks
 * that each is gone: a container podman could not remove at once (still
 * stopping on a busy machine) is killed, waited for and removed again.
 * Returns what is still there ("volume x", ...); [] when all went.
 */
export async function removeResources(r: Resources): Promise<string[]> {
  const exists = async (kind: string, name: string) =>
    (await podman([kind, "exists", name], { timeoutMs: 60_000 })).code === 0;
  for (const name of r.containers ?? []) {
    for (let attempt = 0; attempt < 5 && await exists("container", name); attempt++) {
      if (attempt > 0) {
        await podman(["kill", name], { timeoutMs: 60_000 });
        await podman(["wait", name], { timeoutMs: 60_000 });
      }
      await podman(["rm", "--force", "--volumes", "--time", "0", name], { timeoutMs: 120_000 });
    }
  }
  for (const name of r.pods ?? []) {
    if (await exists("pod", name)) {
      await podman(["pod", "rm", "--force", "--time", "0", name], { timeoutMs: 120_000 });
    }
  }
  for (const name of r.volumes ?? []) {
    if (await exists("volume", name)) {
      await podman(["volume", "rm", "--force", name], { timeoutMs: 120_000 });
    }
  }
  for (const name of r.networks ?? []) {
    if (await exists("network", name)) {
      await podman(["network", "rm", "--force", name], { timeoutMs: 120_000 });
    }
  }
  const left: string[] = [];
  for (const [kind, names] of Object.entries(r) as [keyof Resources, string[]][]) {
    const word = kind.slice(0, -1);
    for (const name of names ?? []) if (await exists(word, name)) left.push(`${word} ${name}`);
  }
  return left;
}

/**
 * Everything the container tests made whose test process is gone (killed
 * before its after hooks ran): removed before a run makes its own. What a
 * running test process (another worktree's, say) made is left alone.
 */
export async function removeStaleTestResources(): Promise<string[]> {
  const all = await listAll();
  const stale: Resources = {};
  for (const [kind, names] of Object.entries(all) as [keyof Resources, string[]][]) {
    for (const name of names) {
      const pid = OWNED.exec(name)?.[1];
      if (pid && Number(pid) !== Deno.pid && !(await alive(Number(pid)))) {
        (stale[kind] ??= []).push(name);
      }
    }
  }
  const left = await removeResources(stale);
  if (left.length) throw new Error(`could not remove what an earlier run left: ${left.join(", ")}`);
  return Object.values(stale).flat();
}

/** Everything whose name says it belongs to this test process (see OWNED). */
export async function ownResources(prefix: string): Promise<Resources> {
  const all = await listAll();
  const mine = (names: string[]) => names.filter((n) => n.replace(/^pod_/, "").startsWith(prefix));
  return {
    containers: mine(all.containers),
    pods: mine(all.pods),
    volumes: mine(all.volumes),
    networks: mine(all.networks),
  };
}
