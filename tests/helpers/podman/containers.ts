// Reading a running container: its log, whether it runs, and waiting for it to answer,
// to log a line or to exit.
import { podman, podmanEnv, podmanOk } from "./run.ts";

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
