// A PDF renderer: a process of its own (`deno run` of this file, started by
// pdf_pool.ts) that renders quote PDFs and work orders, so a long render never holds up the
// server's event loop, and its memory (the renderer's code, fonts and heap,
// 100-160 MiB) is the operating system's again when it ends. It lowers its
// own priority, loads the renderer and the fonts once, says it is ready, then
// answers one job at a time: frames (frames.ts) on stdin, frames on stdout.
// It ends when its stdin closes, so it never outlives the server.
import { setPriority } from "node:os";
import type { ClientCopy } from "../print/print_model.ts";
import type { LogoBytes } from "./logo_source.ts";
import type { ImageKind } from "../uploads/image_rules.ts";
import type { Paper, WorkOrderSheet } from "../orders/work_order.ts";
import { encodeFrame, readFrames } from "./frames.ts";

/**
 * A job's header; the image's bytes, if any, are the frame's body. A PDF of
 * a quote, or the print copy of a logo: the logo made a PNG of print size,
 * once, when it is set (logo_image.ts).
 */
export type RenderRequest =
  | { id: number; kind: "pdf"; model: ClientCopy; logoFormat?: LogoBytes["format"] }
  | { id: number; kind: "print_logo"; imageKind: ImageKind }
  | {
    id: number;
    kind: "work_order";
    sheets: WorkOrderSheet[];
    paper: Paper;
    logoFormat?: LogoBytes["format"];
  };

/** A job as the pool hands it over. */
export type RendererJob =
  | { kind: "pdf"; model: ClientCopy; logo?: LogoBytes }
  | { kind: "print_logo"; image: { bytes: Uint8Array; kind: ImageKind } }
  | { kind: "work_order"; sheets: WorkOrderSheet[]; paper: Paper; logo?: LogoBytes };

/** What the renderer answers; a finished PDF's bytes are the frame's body. */
export type RendererReply =
  | { type: "ready" }
  | { type: "done"; id: number }
  | {
    type: "failed";
    id: number;
    error: string;
    /** Thrown where nothing could catch it: this renderer is done for, the pool replaces it. */
    fatal?: true;
  };

/** The renderer's nice value: below every request, above idle work. */
const PDF_NICE = 10;

// Only when run as the renderer: the pool imports this module's types alone.
if (import.meta.main) await serve();

async function serve() {
  // A PDF yields the CPU to requests. On Linux the nice value is per thread:
  // this lowers the thread that renders; the runtime's helper threads (the
  // garbage collector's) keep theirs.
  try {
    setPriority(PDF_NICE);
  } catch {
    // Not allowed here: render at the normal priority.
  }

  // Loaded after the priority is lowered: compiling the renderer is work too.
  const { renderClientCopyPdf } = await import("./quote_pdf.tsx");
  const { pdfImageFor, prepareSvgRenderer, printCopyOf } = await import("./logo_image.ts");
  const { textSanitizer } = await import("./fonts.ts");
  const { renderWorkOrderPdf } = await import("./work_order_pdf.tsx");
  /** The job's logo as react-pdf draws it: its bytes are the frame's body. */
  const logoOf = (format: LogoBytes["format"] | undefined, body: Uint8Array | undefined) =>
    format && body ? pdfImageFor({ format, bytes: body }) : undefined;

  const out = Deno.stdout.writable.getWriter();
  const reply = (header: RendererReply, body?: Uint8Array) =>
    out.write(encodeFrame({ header, body }));
  const described = (err: unknown) => err instanceof Error ? err.stack ?? err.message : String(err);

  // An image react-pdf cannot read may throw where no try reaches: png-js
  // inflates pixels (to split off an alpha channel, say) in a zlib callback
  // and throws there, and the render it belongs to never ends. Uncaught, that
  // ended this process with the job unanswered. Instead the job fails, saying
  // why, marked fatal: the pool ends this renderer (whatever was left half
  // done goes with it) and gives the jobs waiting to a fresh one.
  let running: number | undefined;
  let broken = false;
  const fatal = (err: unknown) => {
    if (broken) return;
    broken = true;
    const answered = running === undefined
      ? Promise.resolve()
      : reply({ type: "failed", id: running, error: described(err), fatal: true });
    answered.catch(() => {}).finally(() => Deno.exit(1));
  };
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    fatal(event.error);
  });
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    fatal(event.reason);
  });

  // Fonts are parsed, the SVG rasterizer compiled and the renderer's code
  // warmed up by one small render before the first job, so a job's time limit
  // covers its own render only.
  await Promise.all([textSanitizer(), prepareSvgRenderer()]);
  await renderClientCopyPdf({
    header: {
      storeName: "Lensdesk",
      logoUrl: "",
      quoteNumber: "Q-000000",
      date: "",
      clientName: "",
      opticianName: "",
      status: "",
    },
    client: { name: "", email: "", phone: "", address: [] },
    // One priced page, so the code every quote runs through is compiled.
    pages: [{
      optionId: "warm-up",
      optionName: "Warm-up",
      pageNumber: 1,
      pageCount: 1,
      notes: "Warm-up",
      prices: {
        lines: [{ kind: "FRAME", kindLabel: "Frame", name: "Frame", qty: 2, cents: 100 }],
        subtotalCents: 100,
        shippingCents: 100,
        adjustment: { label: "Discount", cents: -100 },
        totalCents: 100,
      },
    }],
    validity: "",
    footer: { storeAddress: "", storePhone: "", storeEmail: "", storeWebsite: "", message: "" },
    emptyText: "",
  });

  await reply({ type: "ready" });

  for await (const { header, body } of readFrames<RenderRequest>(Deno.stdin.readable)) {
    const { id } = header;
    running = id;
    try {
      if (header.kind === "work_order") {
        const image = await logoOf(header.logoFormat, body);
        await reply(
          { type: "done", id },
          await renderWorkOrderPdf(header.sheets, header.paper, image),
        );
        continue;
      }
      if (header.kind === "print_logo") {
        await reply(
          { type: "done", id },
          await printCopyOf(header.imageKind, body ?? new Uint8Array()),
        );
        continue;
      }
      const image = await logoOf(header.logoFormat, body);
      await reply({ type: "done", id }, await renderClientCopyPdf(header.model, image));
    } catch (err) {
      await reply({ type: "failed", id, error: described(err) });
    } finally {
      running = undefined;
    }
  }
  // stdin closed: the server has ended this renderer, or has ended itself.
  Deno.exit(0);
}
