// Running podman and podman-compose on this machine: the environment every call gets, a
// time limit, and the tools it needs.
import { join } from "node:path";

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
export async function imageLabel(tag: string, label: string): Promise<string> {
  const out = await podman(["image", "inspect", "--format", `{{ index .Labels "${label}" }}`, tag]);
  return out.code === 0 ? out.stdout.trim().replace(/^<no value>$/, "") : "";
}

/** An image's size in bytes, as podman counts it (its layers, uncompressed). */
export async function imageSize(tag: string): Promise<number> {
  return Number((await podmanOk(["image", "inspect", "--format", "{{.Size}}", tag])).trim());
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
