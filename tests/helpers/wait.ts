/**
 * Waits until `condition` holds, checking every few milliseconds: for state
 * the test cannot be told about (a job reaching a renderer, a process
 * ending), instead of a sleep. Throws, naming `what`, when time runs out.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
  /** Between two checks: more for a check that runs a command (podman, curl) each time. */
  intervalMs = 5,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
