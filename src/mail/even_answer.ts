/** Time as the helper sees it; tests pass a clock of their own. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; `cancel` drops the wait (no timer is left behind). */
  sleep(ms: number): { done: Promise<void>; cancel(): void };
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep(ms) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = new Promise<void>((resolve) => timer = setTimeout(resolve, Math.max(0, ms)));
    return { done, cancel: () => clearTimeout(timer) };
  },
};

export type EvenOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `attempt`: a success is answered at once; a failure, whatever it was
 * and however fast it came, is answered exactly `deadlineMs` after the start,
 * and an attempt still running then counts as failed. So the time of a failed
 * answer tells nothing: a closed port (refused in milliseconds) and a silent
 * one (a timeout) look the same to whoever asks, and the test e-mail button
 * is no port scanner by timing.
 */
export async function succeedOrWaitOut<T>(
  attempt: Promise<T>,
  deadlineMs: number,
  clock: Clock = realClock,
): Promise<EvenOutcome<T>> {
  const started = clock.now();
  const deadline = clock.sleep(deadlineMs);
  const settled = attempt.then(
    (value): EvenOutcome<T> => ({ ok: true, value }),
    (error): EvenOutcome<T> => ({ ok: false, error }),
  );
  const outcome = await Promise.race([
    settled,
    deadline.done.then((): EvenOutcome<T> => ({
      ok: false,
      error: new Error(`no answer within ${deadlineMs} ms`),
    })),
  ]);
  if (outcome.ok) {
    deadline.cancel();
    return outcome;
  }
  const left = deadlineMs - (clock.now() - started);
  if (left > 0) await deadline.done;
  return outcome;
}
