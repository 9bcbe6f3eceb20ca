import { fileURLToPath } from "node:url";

export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

async function* splitLines(stream: ReadableStream<Uint8Array>) {
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let i;
    while ((i = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
    }
  }
  if (buffer) yield buffer;
}

export interface AppProcess {
  child: Deno.ChildProcess;
  /** Set once the process logged "listening". */
  baseUrl: string;
  /** Every stdout line read so far. */
  seen: string[];
  /** Every stderr line read so far, with `{ errors: true }`. */
  errors: string[];
  /** The first stdout line (from index `from`) that matches; fails if the process ends first. */
  waitForLine(match: (line: string) => boolean, from?: number): Promise<string>;
  /** Waits until the process listens; its base URL. */
  listening(): Promise<string>;
  /** SIGTERM, then waits for the exit status. */
  stop(): Promise<Deno.CommandStatus>;
  /** Makes sure nothing is left running (for finally/after). */
  kill(): Promise<void>;
}

/**
 * The real `main.ts` as a child process, the way `deno task start` runs it,
 * on PORT=0; resolves once it listens (or at once with `{ listening: false }`:
 * then `listening()` waits for it).
 */
export async function startAppProcess(
  env: Record<string, string>,
  options: {
    listening?: boolean;
    /** Keep stderr's lines in `errors` (the logger's "error" level) instead of passing them on. */
    errors?: boolean;
  } = {},
): Promise<AppProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    cwd: projectRoot,
    env: { PORT: "0", ...env },
    stdout: "piped",
    stderr: options.errors ? "piped" : "inherit",
  }).spawn();
  const errors: string[] = [];
  const errorPump = options.errors
    ? (async () => {
      for await (const line of splitLines(child.stderr)) errors.push(line);
    })()
    : Promise.resolve();
  // Stdout is drained all the time (a full pipe would block the child's
  // logging); waiters look at what came and what comes.
  const seen: string[] = [];
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const resolve of waiters) resolve();
    waiters.clear();
  };
  const pump = (async () => {
    for await (const line of splitLines(child.stdout)) {
      seen.push(line);
      wake();
    }
    ended = true;
    wake();
  })();
  const waitForLine = async (match: (line: string) => boolean, from = 0) => {
    let i = from;
    while (true) {
      for (; i < seen.length; i++) if (match(seen[i])) return seen[i];
      if (ended) throw new Error(`process ended before the expected line:\n${seen.join("\n")}`);
      await new Promise<void>((resolve) => waiters.add(resolve));
    }
  };
  const proc: AppProcess = {
    child,
    baseUrl: "",
    seen,
    errors,
    waitForLine,
    async stop() {
      child.kill("SIGTERM");
      return await child.status;
    },
    async listening() {
      // JSON (`"msg":"listening","url":"http://…"`) or text (`listening url=http://…`).
      const line = await waitForLine((l) => /\blistening\b.*url\W+http:/.test(l));
      proc.baseUrl = `http://127.0.0.1:${/url\W+http:\/\/[^\s"]+:(\d+)/.exec(line)![1]}`;
      return proc.baseUrl;
    },
    async kill() {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
      await pump;
      await errorPump;
    },
  };
  if (options.listening === false) return proc;
  try {
    await proc.listening();
  } catch (err) {
    await proc.kill();
    throw err;
  }
  return proc;
}
