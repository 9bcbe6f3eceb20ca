import type { Logger } from "../http/logger.ts";

const running = new Set<Promise<void>>();

/**
 * Work a request starts but does not wait for: the forgotten-password mail,
 * so the answer takes the same time whether or not the address has an
 * account. Failures go to the log; nobody is waiting for them.
 */
export function runInBackground(logger: Logger, what: string, work: () => Promise<unknown>) {
  const task: Promise<void> = Promise.resolve().then(work).then(
    () => {},
    (err) => logger.log("error", `${what} failed`, { error: String(err) }),
  ).finally(() => running.delete(task));
  running.add(task);
}

/** Resolves when every background task started so far (and any they started) has ended. */
export async function backgroundSettled(): Promise<void> {
  while (running.size) await Promise.all([...running]);
}
