// Cleaning up: what a container test made carries its process id in its name, so what
// a test process that is gone left behind can be found and removed.
import { podman, podmanOk } from "./run.ts";

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
