// One Chromium per job slot of the runner: the browser files that run in a
// slot, one after another, each connect to that slot's browser over the
// DevTools protocol (tests/helpers/browser.ts) instead of starting their own,
// about 1.5 s of CPU a file. One browser per slot, not one for the run: the
// two files running at once then share no browser process (one shared browser
// made the browser files ~15 % slower on 2 cores), and Playwright's side of
// the protocol stays in each file's own process.
import { CHROMIUM_ARGS, chromiumPath } from "../helpers/browser.ts";
import { killTree } from "./process_tree.ts";

export interface SlotBrowser {
  /** The DevTools address to connect to (playwright's connectOverCDP). */
  endpoint: string;
  close(): Promise<void>;
}

const START_LIMIT_MS = 30_000;

export async function startSlotBrowser(): Promise<SlotBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "lensdesk-test-chromium-" });
  // In a session of its own, ended with its whole tree: Debian's
  // /usr/bin/chromium* are scripts that run the browser as their child.
  const child = new Deno.Command("setsid", {
    args: [
      chromiumPath(),
      ...CHROMIUM_ARGS,
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const close = async () => {
    killTree(child.pid);
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  };
  // Chromium prints its address on stderr; what follows is read and dropped.
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => reader.cancel().catch(() => {}), START_LIMIT_MS);
  let seen = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      seen = (seen + value).slice(-8192);
      const endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
      if (endpoint) {
        void (async () => {
          while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drained */ }
        })();
        return { endpoint, close };
      }
    }
  } finally {
    clearTimeout(timer);
  }
  await close();
  throw new Error(`Chromium gave no DevTools address: ${seen.trim().slice(-500)}`);
}
