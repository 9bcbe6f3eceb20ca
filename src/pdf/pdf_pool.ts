// The PDF pool. A quote PDF can take seconds to lay out (a maximal quote
// has 20 options of 50 lines each), and on the server's own event loop every
// other request, /healthz included, would wait that long. So PDFs are made by
// renderer processes (renderer_process.ts): started on first use and kept for
// the next jobs, at most `workers` at once, with a bounded queue in front
// (beyond it the caller is told to come back later), and a time limit on each
// render: a renderer that runs over is ended and a fresh one takes its place,
// as is one a job broke (an error thrown where nothing catches it: png-js on
// an image it cannot inflate), after that job alone is failed.
// A renderer idle for `idleMs` is ended too, which gives its memory back.
import type { Paper, WorkOrderSheet } from "../orders/work_order.ts";
import type { ClientCopy } from "../print/print_model.ts";
import type { LogoBytes } from "./logo_source.ts";
import type { RendererJob, RendererReply } from "./pdf_renderer.ts";
import type { ImageKind } from "../uploads/image_rules.ts";
import { RendererProcess } from "./renderer_process.ts";

export interface PdfPoolOptions {
  /** Renders at once: one renderer process each (PDF_WORKERS). */
  workers: number;
  /** Jobs that may wait for a renderer; one more is refused at once. */
  queue: number;
  /** The most one render may take, and the most a job may wait in the queue. */
  timeoutMs: number;
  /**
   * How long a renderer may wait for its next job before it is ended. The
   * next PDF then waits for a new one to start (about a second), so this is
   * that second against 100-160 MiB kept while the store makes no PDFs.
   */
  idleMs: number;
  /**
   * PDFs one caller (a user) may have rendering or waiting at once; one more
   * is refused at once, so one person cannot fill the queue for everyone.
   * PDF_PER_USER; 2 when not given.
   */
  perCaller?: number;
}

/** Why a PDF could not be made now; the caller may try again after `retryAfterSeconds`. */
export class PdfUnavailableError extends Error {
  override name = "PdfUnavailableError";
  constructor(
    readonly reason: "busy" | "timeout" | "closed" | "caller",
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

interface Job {
  request: RendererJob;
  resolve(pdf: Uint8Array): void;
  reject(err: Error): void;
  /** The queue-wait limit, then the render limit. */
  timer?: ReturnType<typeof setTimeout>;
}

interface Slot {
  renderer: RendererProcess;
  ready: boolean;
  job?: Job;
  jobId?: number;
  startedAt?: number;
  /** Set while the renderer waits for a job: it ends the renderer when it fires. */
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** What the caller is told, by reason. */
const MESSAGES: Record<PdfUnavailableError["reason"], string> = {
  busy: "Too many PDFs are being made right now. Please try again in a moment.",
  timeout: "Making this PDF took too long, so it was stopped. Please try again in a moment.",
  closed: "The server is shutting down. Please try again in a moment.",
  caller: "You already have PDFs being made. Please wait for them to finish, then try again.",
};
/** Render times remembered for the Retry-After estimate. */
const RECENT = 20;
/**
 * How long a new renderer may take to load its code and fonts (a second or
 * two) before its job is failed: apart from the render limit, so a short
 * render limit cannot stop every renderer before it is ready.
 */
const STARTUP_LIMIT_MS = 60_000;

export class PdfPool {
  readonly #options: Required<PdfPoolOptions>;
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  #recentMs: number[] = [];
  #started = 0;
  /** Jobs rendering or waiting, by caller. */
  #perCaller = new Map<string, number>();

  constructor(options: PdfPoolOptions) {
    if (
      !(options.workers >= 1 && options.queue >= 0 && options.timeoutMs > 0 &&
        options.idleMs > 0 && (options.perCaller ?? 1) >= 1)
    ) {
      throw new Error(
        "A PDF pool needs at least one worker, a queue limit, a time limit and an idle limit",
      );
    }
    this.#options = { perCaller: 2, ...options };
  }

  /** Renderers alive, renders running, jobs waiting, and renderers started since the pool was made. */
  stats() {
    return {
      workers: this.#slots.length,
      busy: this.#slots.filter((s) => s.job).length,
      queued: this.#queue.length,
      started: this.#started,
    };
  }

  /** The process ids of the renderers alive (for tests and the bench's memory figure). */
  pids(): number[] {
    return this.#slots.map((s) => s.renderer.pid);
  }

  /**
   * The client copy as PDF bytes, rendered by a renderer. Rejects with
   * PdfUnavailableError when it cannot, or when `caller` already has
   * `perCaller` PDFs rendering or waiting.
   */
  render(model: ClientCopy, logo?: LogoBytes, caller?: string): Promise<Uint8Array> {
    return this.#counted(caller, () => this.#render(model, logo));
  }

  /** A lab work order (one sheet per job) as PDF bytes, under the same limits as a quote's. */
  workOrder(
    sheets: WorkOrderSheet[],
    paper: Paper,
    logo?: LogoBytes,
    caller?: string,
  ): Promise<Uint8Array> {
    return this.#counted(caller, () => this.#enqueue({ kind: "work_order", sheets, paper, logo }));
  }

  #counted(caller: string | undefined, start: () => Promise<Uint8Array>): Promise<Uint8Array> {
    if (this.#closed) return Promise.reject(this.#unavailable("closed"));
    if (caller === undefined) return start();
    const inFlight = this.#perCaller.get(caller) ?? 0;
    if (inFlight >= this.#options.perCaller) {
      return Promise.reject(this.#unavailable("caller"));
    }
    this.#perCaller.set(caller, inFlight + 1);
    return start().finally(() => {
      const left = (this.#perCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.#perCaller.set(caller, left);
      else this.#perCaller.delete(caller);
    });
  }

  /**
   * A logo as a PNG of print size (at most 288 pixels high and 1,600 wide),
   * made by a renderer: decoding an uploaded image, whatever it holds, never
   * happens in the server. Rejects when the image cannot be drawn, or with
   * PdfUnavailableError like a PDF.
   */
  printCopy(bytes: Uint8Array, kind: ImageKind): Promise<Uint8Array> {
    if (this.#closed) return Promise.reject(this.#unavailable("closed"));
    return this.#enqueue({ kind: "print_logo", image: { bytes, kind } });
  }

  #render(model: ClientCopy, logo?: LogoBytes): Promise<Uint8Array> {
    return this.#enqueue({ kind: "pdf", model, logo });
  }

  #enqueue(request: RendererJob): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const job: Job = { request, resolve, reject };
      this.#queue.push(job);
      this.#pump();
      if (!this.#queue.includes(job)) return;
      if (this.#queue.length > this.#options.queue) {
        this.#queue.splice(this.#queue.indexOf(job), 1);
        reject(this.#unavailable("busy"));
        return;
      }
      job.timer = setTimeout(() => {
        const at = this.#queue.indexOf(job);
        if (at < 0) return;
        this.#queue.splice(at, 1);
        reject(this.#unavailable("busy"));
      }, this.#options.timeoutMs);
    });
  }

  /**
   * Refuses new jobs, fails the waiting and running ones, and ends every
   * renderer; resolves once their processes are gone (a shutdown says so
   * only then).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const ending: Promise<void>[] = [];
    for (const job of this.#queue.splice(0)) {
      clearTimeout(job.timer);
      job.reject(this.#unavailable("closed"));
    }
    for (const slot of this.#slots.splice(0)) {
      clearTimeout(slot.idleTimer);
      ending.push(slot.renderer.end());
      if (slot.job) {
        clearTimeout(slot.job.timer);
        slot.job.reject(this.#unavailable("closed"));
      }
    }
    await Promise.all(ending);
  }

  /** Gives waiting jobs to idle renderers, starting renderers up to the pool size. */
  #pump() {
    while (this.#queue.length > 0 && !this.#closed) {
      let slot = this.#slots.find((s) => !s.job);
      if (!slot) {
        if (this.#slots.length >= this.#options.workers) return;
        slot = this.#spawn();
      }
      const job = this.#queue.shift()!;
      clearTimeout(job.timer);
      clearTimeout(slot.idleTimer);
      slot.job = job;
      if (slot.ready) this.#dispatch(slot);
      else this.#awaitReady(slot);
    }
  }

  #spawn(): Slot {
    const slot = {
      ready: false,
      renderer: new RendererProcess({
        reply: (reply, pdf) => this.#onReply(slot, reply, pdf),
        lost: (error) => this.#retire(slot, error),
      }),
    } as Slot;
    this.#started += 1;
    this.#slots.push(slot);
    return slot;
  }

  #awaitReady(slot: Slot) {
    slot.job!.timer = setTimeout(
      () => this.#retire(slot, this.#unavailable("timeout")),
      STARTUP_LIMIT_MS,
    );
  }

  #dispatch(slot: Slot) {
    clearTimeout(slot.job!.timer);
    const job = slot.job!;
    const id = this.#nextId++;
    slot.jobId = id;
    slot.startedAt = performance.now();
    job.timer = setTimeout(
      () => this.#retire(slot, this.#unavailable("timeout")),
      this.#options.timeoutMs,
    );
    slot.renderer.send(id, job.request);
  }

  #onReply(slot: Slot, reply: RendererReply, pdf?: Uint8Array) {
    if (reply.type === "ready") {
      slot.ready = true;
      if (slot.job) this.#dispatch(slot);
      return;
    }
    const job = slot.job;
    if (!job || reply.id !== slot.jobId) return;
    clearTimeout(job.timer);
    slot.job = slot.jobId = undefined;
    this.#recentMs.push(performance.now() - slot.startedAt!);
    if (this.#recentMs.length > RECENT) this.#recentMs.shift();
    if (reply.type === "done") job.resolve(pdf ?? new Uint8Array(0));
    else job.reject(new Error(`render failed: ${reply.error}`));
    if (reply.type === "failed" && reply.fatal) {
      // Broken by that job alone: ended, and the jobs waiting go to a fresh renderer.
      this.#retire(slot);
      return;
    }
    this.#pump();
    if (!slot.job && this.#slots.includes(slot)) {
      slot.idleTimer = setTimeout(() => this.#retire(slot), this.#options.idleMs);
    }
  }

  /**
   * Ends a renderer that overran, broke or sat idle, fails its job if it had
   * one, and lets a fresh one take the queue.
   */
  #retire(slot: Slot, error?: Error) {
    clearTimeout(slot.idleTimer);
    slot.renderer.end();
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
    if (slot.job) {
      clearTimeout(slot.job.timer);
      slot.job.reject(error ?? this.#unavailable("closed"));
      slot.job = undefined;
    }
    this.#pump();
  }

  #unavailable(reason: PdfUnavailableError["reason"]): PdfUnavailableError {
    return new PdfUnavailableError(reason, MESSAGES[reason], this.#retryAfter());
  }

  /** Seconds until a renderer is likely free: the work ahead of a new job at the recent pace. */
  #retryAfter(): number {
    const average = this.#recentMs.length
      ? this.#recentMs.reduce((a, b) => a + b, 0) / this.#recentMs.length
      : 2000;
    const ahead = this.#queue.length + this.#slots.filter((s) => s.job).length;
    const seconds = Math.ceil((average * Math.max(1, ahead)) / this.#options.workers / 1000);
    return Math.min(60, Math.max(1, seconds));
  }
}
