// One command run to its end or to its time limit, whichever comes first,
// with its output kept for printing in one piece. Every wait here is bounded,
// so a process that will not end cannot hold the runner.
import { killTree, spawnInNewSession, type SpawnOptions } from "./process_tree.ts";

/** After the kill, how long the process gets to be reaped before the runner moves on. */
const EXIT_AFTER_KILL_MS = 10_000;
/**
 * After the exit, how long its output may still take to arrive: a process it
 * left behind may hold the pipe open, and must not hold the runner with it.
 */
const OUTPUT_AFTER_EXIT_MS = 5_000;

export interface LimitedRun {
  /** The exit code; null when it was killed or never seen to exit. */
  code: number | null;
  timedOut: boolean;
  /** Processes of its tree killed at the limit (0 when it ended by itself). */
  killed: number;
  /** Whether the process was seen to exit (false: still there after the kill's grace). */
  exited: boolean;
  /** Stdout and stderr, in the order they arrived. */
  output: string;
  seconds: number;
}

/** Session ids of the commands running now, for ending them all on Ctrl-C. */
export const running = new Set<number>();

/** Reads `stream` into `parts` as text until it ends or is cancelled. */
function drain(stream: ReadableStream<Uint8Array>, parts: string[]) {
  const reader = stream.getReader();
  // A decoder per stream: a character split between two reads stays whole
  // even when the other stream's text lands in between.
  const decoder = new TextDecoder();
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        parts.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Cancelled below, or the pipe broke with the process: what came is kept.
    }
    parts.push(decoder.decode());
  })();
  return { done, cancel: () => reader.cancel().catch(() => {}) };
}

/** Resolves to true when `promise` settles within `ms`, to false otherwise. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms));
  return Promise.race([promise.then(() => true, () => true), late])
    .finally(() => clearTimeout(timer));
}

export async function runLimited(
  command: string,
  args: string[],
  limitMs: number,
  options: SpawnOptions = {},
): Promise<LimitedRun> {
  const started = performance.now();
  const child = spawnInNewSession(command, args, options);
  running.add(child.pid);
  const parts: string[] = [];
  const readers = [drain(child.stdout, parts), drain(child.stderr, parts)];

  let status: Deno.CommandStatus | undefined;
  const exit = child.status.then((s) => status = s, () => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise((resolve) => timer = setTimeout(resolve, limitMs));
  await Promise.race([exit, limit]);
  clearTimeout(timer);

  let timedOut = false;
  let killed = 0;
  let exited = status !== undefined;
  if (!exited) {
    // Still running at its limit, and not reaped (its pid is still its own):
    // end its whole tree, then give it a bounded time to be seen gone.
    timedOut = true;
    killed = killTree(child.pid);
    exited = await within(exit, EXIT_AFTER_KILL_MS);
  }
  running.delete(child.pid);

  if (!(await within(Promise.all(readers.map((r) => r.done)), OUTPUT_AFTER_EXIT_MS))) {
    for (const r of readers) r.cancel();
  }
  return {
    code: timedOut || !status ? null : status.code,
    timedOut,
    killed,
    exited,
    output: parts.join(""),
    seconds: (performance.now() - started) / 1000,
  };
}
