// Starting a command so that it and everything it starts can be ended
// together, and ending them. A test file's `deno test` starts Chromium, app
// processes and PDF renderers; killing only the deno process would leave
// those running (holding ports, CPU and the output pipe the runner reads).
//
// The command runs through `setsid`, so its process is the leader of a new
// session and process group whose id is its pid. Most of what it starts stays
// in that group, but not all: Playwright starts Chromium `detached` (a session
// of its own). So the tree is also followed through parent pids in /proc while
// the test's process is still alive to be their parent.

/** A command started in a session of its own (pid = its session and group id). */
export interface SpawnOptions {
  env?: Record<string, string>;
  /** Whether `env` is the whole environment (else it is added to this process's). */
  clearEnv?: boolean;
  cwd?: string;
}

export function spawnInNewSession(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Deno.ChildProcess {
  // Deno does not start a child as a group leader, so setsid(1) calls
  // setsid() and execs the command in place: the pid we get is the command's.
  return new Deno.Command("setsid", {
    args: [command, ...args],
    env: options.env,
    clearEnv: options.clearEnv,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  zombie: boolean;
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // "pid (comm) state ppid pgrp session ...": comm may hold spaces and
    // parentheses, so the fields are read after its last ")".
    const [state, ppid, pgrp, session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      pid,
      ppid: Number(ppid),
      pgrp: Number(pgrp),
      session: Number(session),
      zombie: state === "Z" || state === "X",
    };
  } catch {
    return undefined; // gone (or no /proc)
  }
}

/** Every process /proc shows (empty where there is no /proc). */
export function processTable(): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      const found = /^\d+$/.test(entry.name) ? readEntry(Number(entry.name)) : undefined;
      if (found) table.push(found);
    }
  } catch {
    // No /proc: the caller falls back to the process group.
  }
  return table;
}

/**
 * The processes of the tree rooted at `root` (a process started by
 * spawnInNewSession): its session and group, and every descendant of any of
 * them by parent pid, whatever session that descendant moved to.
 */
export function treeMembers(root: number, table = processTable()): number[] {
  const members = new Set<number>();
  for (const p of table) {
    if (p.pid === root || p.session === root || p.pgrp === root) members.add(p.pid);
  }
  // Descendants, to a fixed point (a child may be listed before its parent).
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (!members.has(p.pid) && members.has(p.ppid)) {
        members.add(p.pid);
        grew = true;
      }
    }
  }
  return [...members];
}

function signal(pid: number, sig: Deno.Signal): boolean {
  try {
    Deno.kill(pid, sig);
    return true;
  } catch {
    return false; // already gone
  }
}

/**
 * Kills the whole tree of `root`, which must still be alive and unreaped (its
 * pid then cannot name another process). Each process found is stopped first
 * so none can start another between the look and the kill; the look is
 * repeated until it finds nothing new (a child forked just before its parent
 * stopped is not stopped with it). Returns how many processes were killed.
 */
export function killTree(root: number): number {
  const doomed = new Set<number>();
  signal(-root, "SIGSTOP");
  for (let round = 0; round < 20; round++) {
    const found = treeMembers(root).filter((pid) => !doomed.has(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      signal(pid, "SIGSTOP");
      doomed.add(pid);
    }
  }
  // Without /proc (not Linux) the group is all that can be found.
  signal(-root, "SIGKILL");
  for (const pid of doomed) signal(pid, "SIGKILL");
  return Math.max(doomed.size, 1);
}

/** Whether `pid` is a live process (a zombie is not: it only waits to be reaped). */
export function isAlive(pid: number): boolean {
  const entry = readEntry(pid);
  return entry !== undefined && !entry.zombie;
}
