// Starts one PDF renderer process (pdf_renderer.ts) and talks to it in frames.
// A process rather than a Web Worker: when it ends, all of its memory goes
// back to the operating system (a terminated worker gave back 40-60 of its
// ~130 MiB), its heap has a limit of its own, and it runs with only the
// permission it needs, reading the app's files, so a hostile quote or logo
// that broke the renderer could reach no network, file write or secret.
import { fileURLToPath } from "node:url";
import type { RendererJob, RendererReply, RenderRequest } from "./pdf_renderer.ts";
import { encodeFrame, readFrames } from "./frames.ts";

const APP_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ENTRY = fileURLToPath(new URL("./pdf_renderer.ts", import.meta.url));
/**
 * The renderer's heap limit: the largest quote the API accepts (20 options of
 * 50 lines) peaks far below it; a render that needs more is a broken one, and
 * ends the renderer instead of growing the machine's memory.
 */
export const RENDERER_HEAP_MIB = 512;
/**
 * The renderer's whole memory, not only its JavaScript heap: resvg's
 * WebAssembly memory, decoded images and the runtime's own. Held with
 * RLIMIT_DATA (writable private memory), not RLIMIT_AS: Deno reserves some
 * 18 GiB of address space it never uses (V8's cages, WebAssembly guard
 * regions), while its writable memory starts near 550 MiB (thread stacks
 * included). A decompression bomb (30,000 × 30,000 pixels, 3.6 GB decoded)
 * then fails inside the renderer, which is replaced, instead of taking the
 * machine's memory.
 */
export const RENDERER_MEMORY_MIB = 1536;

let prlimitPath: string | null | undefined;
/** util-linux's prlimit (in Debian's base), which sets a limit and runs the renderer. */
function findPrlimit(): string | null {
  if (prlimitPath !== undefined) return prlimitPath;
  prlimitPath = null;
  if (Deno.build.os !== "linux") return prlimitPath;
  for (const dir of ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]) {
    try {
      if (Deno.statSync(`${dir}/prlimit`).isFile) return prlimitPath = `${dir}/prlimit`;
    } catch {
      // not there
    }
  }
  return prlimitPath;
}

/**
 * The program and arguments that start a renderer: `deno run` under
 * `prlimit --data` when the system has it (it then runs in place of prlimit,
 * with its pid), else `deno run` alone (a warning is logged once).
 */
export function rendererCommand(): { command: string; args: string[]; memoryCapped: boolean } {
  const prlimit = findPrlimit();
  if (!prlimit) return { command: Deno.execPath(), args: rendererArgs(), memoryCapped: false };
  const bytes = RENDERER_MEMORY_MIB * 1024 * 1024;
  return {
    command: prlimit,
    args: [`--data=${bytes}:${bytes}`, "--", Deno.execPath(), ...rendererArgs()],
    memoryCapped: true,
  };
}

let warned = false;
/** What the renderer's `deno run` needs to find its cache, and the time zone. */
const PASSED_ENV = ["PATH", "HOME", "XDG_CACHE_HOME", "DENO_DIR", "TZ", "DENO_NO_UPDATE_CHECK"];

/** The `deno run` arguments of a renderer (exported for the deploy test). */
export function rendererArgs(): string[] {
  return [
    "run",
    // Everything it loads was cached with the server's own graph: no network at start.
    "--cached-only",
    "--no-prompt",
    `--v8-flags=--max-old-space-size=${RENDERER_HEAP_MIB}`,
    // Fonts and the SVG rasterizer's wasm, under node_modules; nothing else.
    `--allow-read=${APP_ROOT}`,
    // Its own nice value (pdf_renderer.ts).
    "--allow-sys=setPriority",
    // React picks its build by it.
    "--allow-env=NODE_ENV",
    ENTRY,
  ];
}

export interface RendererEvents {
  /** A reply: ready, or a job done (with the PDF's bytes) or failed. */
  reply(reply: RendererReply, pdf?: Uint8Array): void;
  /** The process ended or its pipes broke; not called after `end()`. */
  lost(error: Error): void;
}

export class RendererProcess {
  readonly #child: Deno.ChildProcess;
  readonly #input: WritableStreamDefaultWriter<Uint8Array>;
  #ended = false;

  constructor(events: RendererEvents) {
    const env: Record<string, string> = {};
    for (const name of PASSED_ENV) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    // The server's own choice (src/http/react_production.ts): production unless set.
    env.NODE_ENV = Deno.env.get("NODE_ENV") || "production";
    const { command, args, memoryCapped } = rendererCommand();
    if (!memoryCapped && !warned) {
      warned = true;
      console.warn(
        "PDF renderer: prlimit was not found, so its memory is held only by its heap limit",
      );
    }
    const child = new Deno.Command(command, {
      args,
      cwd: APP_ROOT,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      // Its errors (a crash, the heap limit) land in the server's own log stream.
      stderr: "inherit",
    }).spawn();
    this.#child = child;
    this.#input = child.stdin.getWriter();
    // A write to a renderer that has died fails here; `lost` reports it once.
    this.#input.closed.catch(() => {});
    const lost = (error: Error) => {
      if (!this.#ended) {
        this.#ended = true;
        events.lost(error);
      }
    };
    (async () => {
      try {
        for await (const { header, body } of readFrames<RendererReply>(child.stdout)) {
          if (!this.#ended) events.reply(header, body);
        }
      } catch (err) {
        lost(new Error(`PDF renderer sent an unreadable message: ${(err as Error).message}`));
        this.end();
        return;
      }
      // Its output ends when it does: say how it ended.
      const { code, signal } = await child.status;
      lost(new Error(`PDF renderer ended (${signal ?? `exit code ${code}`})`));
    })();
  }

  get pid(): number {
    return this.#child.pid;
  }

  /** Sends one job. A renderer that has died is reported through `lost`. */
  send(id: number, job: RendererJob): void {
    const [header, body]: [RenderRequest, Uint8Array | undefined] = job.kind === "pdf"
      ? [{ id, kind: "pdf", model: job.model, logoFormat: job.logo?.format }, job.logo?.bytes]
      : job.kind === "work_order"
      ? [
        {
          id,
          kind: "work_order",
          sheets: job.sheets,
          paper: job.paper,
          logoFormat: job.logo?.format,
        },
        job.logo?.bytes,
      ]
      : [{ id, kind: "print_logo", imageKind: job.image.kind }, job.image.bytes];
    this.#input.write(encodeFrame({ header, body })).catch(() => {});
  }

  /**
   * Ends the process now (a job it may be running is abandoned). Resolves
   * once it is gone: a kill is only sent, and a busy machine may take a
   * moment to carry it out.
   */
  async end(): Promise<void> {
    if (!this.#ended) {
      this.#ended = true;
      this.#input.close().catch(() => {});
      try {
        this.#child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await this.#child.status;
  }
}
