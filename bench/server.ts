// The real server (main.ts) as its own process, started as `deno task start`
// starts it (its V8 flags shape the memory measured), without the rebuild.
import { join } from "node:path";
import { startRunFlags } from "./start_flags.ts";
import type { Store } from "./fill.ts";

export interface Server {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

const root = new URL("../", import.meta.url).pathname;

export async function startServer(store: Store): Promise<Server> {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? store.dir,
    DATA_DIR: store.dir,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    LOG_REQUESTS: "0",
    OWNER_USERNAME: "bench-owner",
    OWNER_PASSWORD: crypto.randomUUID(),
  };
  if (store.url) env.DATABASE_URL = store.url;
  for (const k of ["DENO_DIR", "TZ"]) if (Deno.env.get(k)) env[k] = Deno.env.get(k)!;
  const flags = startRunFlags(await Deno.readTextFile(join(root, "deno.json")));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--cached-only", ...flags, "main.ts"],
    cwd: root,
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let errors = "";
  (async () => {
    for (;;) {
      const { value, done } = await stderr.read();
      if (done) break;
      errors = (errors + value).slice(-4000);
    }
  })();
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.body?.cancel().then(() => r.ok))
      .catch(() => false);
    if (ok) return { base, pid: child.pid, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`The server did not start:\n${errors}`);

  async function stop() {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  }
}
