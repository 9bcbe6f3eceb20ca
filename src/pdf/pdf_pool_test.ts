import { afterEach, describe, it } from "node:test";
import { expect } from "expect";
import { PDFDocument } from "pdf-lib";
import { PdfPool, PdfUnavailableError } from "./pdf_pool.ts";
import { clientCopy, signedCopy } from "../print/print_model.ts";
import type { Branding } from "../settings/settings.ts";
import { bundleFrom, maximalClient, maximalOptions } from "../../tests/helpers/quote_fixture.ts";
import { RENDERER_MEMORY_MIB, rendererArgs, rendererCommand } from "./renderer_process.ts";
import { isAlive } from "../../bench/proc.ts";
import { waitUntil } from "../../tests/helpers/wait.ts";
import { damagedSignatures } from "../../tests/helpers/images.ts";

const branding: Branding = {
  storeName: "Northside Eyewear",
  storePhone: "",
  storeEmail: "",
  storeAddress: "",
  storeWebsite: "",
  logoUrl: "",
  faviconUrl: "",
};

const small = clientCopy(bundleFrom(maximalClient(), []), branding);
/** The largest quote the API accepts: seconds of layout, far over the limits set below. */
const maximal = clientCopy(bundleFrom(maximalClient(), maximalOptions()), branding);

const pageCount = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

let pool: PdfPool | undefined;
afterEach(() => pool?.close());

describe("PdfPool", () => {
  it("starts no worker until the first PDF, then reuses it", async () => {
    pool = new PdfPool({ workers: 2, queue: 2, timeoutMs: 60_000, idleMs: 60_000 });
    expect(pool.stats()).toEqual({ workers: 0, busy: 0, queued: 0, started: 0 });
    expect(await pageCount(await pool.render(small))).toBe(1);
    expect(await pageCount(await pool.render(small))).toBe(1);
    expect(pool.stats()).toEqual({ workers: 1, busy: 0, queued: 0, started: 1 });
  });

  it("stops a render over the time limit and starts a fresh worker for the next job", async () => {
    // Far too short for the maximal quote, which takes seconds.
    pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 1000, idleMs: 60_000 });
    const error = await pool.render(maximal).catch((err) => err);
    expect(error).toBeInstanceOf(PdfUnavailableError);
    expect(error.reason).toBe("timeout");
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // The worker that ran over is gone...
    expect(pool.stats()).toEqual({ workers: 0, busy: 0, queued: 0, started: 1 });
    // ...and the next job gets a new one.
    const next = pool.render(small);
    expect(pool.stats()).toEqual({ workers: 1, busy: 1, queued: 0, started: 2 });
    pool.close();
    expect((await next.catch((err) => err)).reason).toBe("closed");
  });

  it("queues up to its limit and refuses the next job at once", async () => {
    pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 60_000, idleMs: 60_000 });
    const running = pool.render(maximal);
    const waiting = pool.render(small);
    const refused = await pool.render(small).catch((err) => err);
    expect(refused).toBeInstanceOf(PdfUnavailableError);
    expect(refused.reason).toBe("busy");
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 1, queued: 1 });
    // Closing fails what is still running or waiting: nothing hangs, no worker is left.
    pool.close();
    for (const job of [running, waiting]) {
      expect((await job.catch((err) => err)).reason).toBe("closed");
    }
    expect(pool.stats()).toMatchObject({ workers: 0, busy: 0, queued: 0 });
    expect((await pool.render(small).catch((err) => err)).reason).toBe("closed");
  });

  it("renders as many PDFs at once as it has workers", async () => {
    pool = new PdfPool({ workers: 2, queue: 0, timeoutMs: 60_000, idleMs: 60_000 });
    const pdfs = await Promise.all([pool.render(small), pool.render(small)]);
    for (const pdf of pdfs) expect(await pageCount(pdf)).toBe(1);
    expect(pool.stats()).toMatchObject({ workers: 2, started: 2 });
  });

  it("ends a renderer that has waited idleMs for a job, and its process with it", async () => {
    pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 60_000, idleMs: 300 });
    expect(await pageCount(await pool.render(small))).toBe(1);
    const [pid] = pool.pids();
    expect(await isAlive(pid)).toBe(true);
    await waitUntil(() => pool!.stats().workers === 0, "the idle renderer is retired", 10_000);
    await waitUntil(async () => !(await isAlive(pid)), "its process has ended", 10_000);
    // The next PDF starts a new renderer.
    expect(await pageCount(await pool.render(small))).toBe(1);
    expect(pool.stats()).toEqual({ workers: 1, busy: 0, queued: 0, started: 2 });
  });

  it("fails the job of a renderer that dies, and starts a fresh one for the next", async () => {
    pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 60_000, idleMs: 60_000 });
    await pool.render(small);
    const running = pool.render(maximal);
    Deno.kill(pool.pids()[0], "SIGKILL");
    const error = await running.catch((err) => err);
    expect(error.message).toMatch(/PDF renderer ended \(SIGKILL\)/);
    expect(pool.stats()).toMatchObject({ workers: 0, busy: 0 });
    expect(await pageCount(await pool.render(small))).toBe(1);
    expect(pool.stats()).toMatchObject({ workers: 1, started: 2 });
  });

  it("fails only the job whose image breaks its renderer; the job waiting gets a fresh one", async () => {
    // A signature png-js cannot unfilter: it throws inside a zlib callback,
    // where nothing catches it (pngProblem keeps such images from the pool).
    const bundle = bundleFrom(maximalClient(), maximalOptions().slice(0, 1));
    const broken = signedCopy(bundle, branding, {
      signerName: "Jane Doe",
      acceptedAt: new Date(),
      chosenOptionIds: bundle.options.map((o) => o.id),
      signaturePng: damagedSignatures()["unknown row filter"],
    });
    pool = new PdfPool({ workers: 1, queue: 2, timeoutMs: 60_000, idleMs: 60_000 });
    const [failed, made] = await Promise.allSettled([pool.render(broken), pool.render(small)]);
    // The job is told why, not only that its renderer ended.
    expect(failed.status === "rejected" && failed.reason.message).toMatch(
      /^render failed: .*Invalid filter algorithm: 9/,
    );
    expect(made.status).toBe("fulfilled");
    expect(await pageCount((made as PromiseFulfilledResult<Uint8Array>).value)).toBe(1);
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 0, queued: 0, started: 2 });
    // And the next one after it too.
    expect(await pageCount(await pool.render(small))).toBe(1);
  });

  it("ends every renderer process when the pool closes", async () => {
    pool = new PdfPool({ workers: 2, queue: 0, timeoutMs: 60_000, idleMs: 60_000 });
    await Promise.all([pool.render(small), pool.render(small)]);
    const pids = pool.pids();
    expect(pids).toHaveLength(2);
    await pool.close();
    // Once close() has resolved the processes are gone, not only sent a kill:
    // a shutdown that says its renderers ended says so truly.
    for (const pid of pids) expect([pid, await isAlive(pid)]).toEqual([pid, false]);
  });
});

describe("a PDF renderer process", () => {
  it("may read the app's files and nothing else: no network, writes, environment or programs", () => {
    const args = rendererArgs();
    const permissions = args.filter((a) => a.startsWith("--allow-"));
    const root = new URL("../../", import.meta.url).pathname;
    expect(permissions).toEqual([
      `--allow-read=${root}`,
      "--allow-sys=setPriority",
      "--allow-env=NODE_ENV",
    ]);
    expect(args).not.toContain("-A");
  });

  it("cannot reach the network or write a file, whatever it is asked to run", async () => {
    // The renderer's own flags around a script that tries what a hostile input
    // breaking the renderer would try.
    const script = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(
      script,
      `const tries = {
        net: () => fetch("http://127.0.0.1:5432/"),
        write: () => Deno.writeTextFile(${JSON.stringify(root())}+"pwned.txt", "x"),
        env: async () => Deno.env.get("SECRET_KEY"),
        run: () => new Deno.Command("id").output(),
      };
      for (const [name, attempt] of Object.entries(tries)) {
        try { await attempt(); console.log(name + ": allowed"); }
        catch (err) { console.log(name + ": " + err.name); }
      }`,
    );
    const args = rendererArgs().slice(0, -1).filter((a) => !a.startsWith("--allow-read"));
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...args, `--allow-read=${root()},${script}`, script],
      env: { SECRET_KEY: "s3cret" },
      stdout: "piped",
    }).output();
    await Deno.remove(script);
    expect(new TextDecoder().decode(out.stdout).trim().split("\n")).toEqual([
      "net: NotCapable",
      "write: NotCapable",
      "env: NotCapable",
      "run: NotCapable",
    ]);
  });
});

describe("a PDF renderer's memory", () => {
  it("is held as a whole, not only its JavaScript heap: memory past the limit is refused", async () => {
    const { command, args, memoryCapped } = rendererCommand();
    expect(memoryCapped).toBe(true); // Linux with util-linux's prlimit, as in the image
    // The renderer's own command around a script that takes memory outside the
    // JavaScript heap (an ArrayBuffer's store, as WebAssembly memory and decoded
    // images are), which the heap limit alone never held.
    const script = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(
      script,
      `for (const [name, mib] of [["small", 256], ["past the limit", ${RENDERER_MEMORY_MIB}]]) {
        try { new Uint8Array(mib * 1024 * 1024).fill(1); console.log(name + ": allowed"); }
        catch (err) { console.log(name + ": " + err.name); }
      }`,
    );
    const own = args.slice(0, -1).filter((a) => !a.startsWith("--allow-read"));
    const out = await new Deno.Command(command, {
      args: [...own, `--allow-read=${root()},${script}`, script],
      stdout: "piped",
    }).output();
    await Deno.remove(script);
    expect(new TextDecoder().decode(out.stdout).trim().split("\n")).toEqual([
      "small: allowed",
      "past the limit: RangeError",
    ]);
  });

  it("is limited in the renderers the pool starts", async () => {
    const pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 60_000, idleMs: 60_000 });
    try {
      await pool.render(small);
      const [pid] = pool.pids();
      const limits = await Deno.readTextFile(`/proc/${pid}/limits`);
      const bytes = RENDERER_MEMORY_MIB * 1024 * 1024;
      expect(limits).toMatch(new RegExp(`^Max data size\\s+${bytes}\\s+${bytes}\\s+bytes`, "m"));
    } finally {
      await pool.close();
    }
  });
});

function root() {
  return new URL("../../", import.meta.url).pathname;
}
