// Memory and child processes of a running process, from Linux's /proc: the
// bench's memory figures and the tests that check renderer processes end.

/** Resident memory now (VmRSS), or the most it has been (VmHWM), in MiB. */
export async function rssOf(pid: number, field = "VmRSS"): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * The resident memory that is the process's own (anonymous: heaps, stacks),
 * in MiB, without the pages of files it maps: a second `deno` process maps
 * the same binary as the server, and those pages are in memory once.
 */
export async function anonymousOf(pid: number): Promise<number> {
  const rollup = await Deno.readTextFile(`/proc/${pid}/smaps_rollup`);
  return Number(/^Anonymous:\s+(\d+) kB/m.exec(rollup)?.[1] ?? NaN) / 1024;
}

/** The processes `pid` has started and that are still alive, from every one of its threads. */
export async function childPidsOf(pid: number): Promise<number[]> {
  const pids: number[] = [];
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const text = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/children`)
        .catch(() => "");
      pids.push(...text.split(" ").filter(Boolean).map(Number));
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return pids;
}

/** Whether a process is alive (a zombie, ended but not yet waited for, is not). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
