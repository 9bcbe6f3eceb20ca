// A PDF worker: a Web Worker (its own thread and event loop) that renders
// quote PDFs for pdf_pool.ts, so a long render never holds up the server's
// event loop. It lowers its own priority, loads the renderer and the fonts
// once, says it is ready, then answers one job at a time.
import { setPriority } from "node:os";
import type { ClientCopy } from "../print/print_model.ts";
import type { LogoBytes } from "./logo_source.ts";

/** What the pool sends: one client copy to render, with the store's logo bytes if any. */
export interface RenderRequest {
  id: number;
  model: ClientCopy;
  logo?: LogoBytes;
}

/** What the worker answers. */
export type WorkerReply =
  | { type: "ready" }
  | { type: "done"; id: number; pdf: Uint8Array }
  | { type: "failed"; id: number; error: string };

/** The worker thread's nice value: below every request, above idle work. */
const PDF_NICE = 10;

// Typed as the worker global it is (the project's lib is "dom", whose `self` is a Window).
const scope = self as unknown as {
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<RenderRequest>) => void) | null;
};

// A PDF yields the CPU to requests: on Linux the nice value is per thread,
// so this lowers this worker's priority only, not the server's. (Elsewhere
// it would lower the whole process, so it is left alone there.)
if (Deno.build.os === "linux") {
  try {
    setPriority(PDF_NICE);
  } catch {
    // Not allowed here: render at the normal priority.
  }
}

// Loaded after the priority is lowered: compiling the renderer is work too.
const { renderClientCopyPdf } = await import("./quote_pdf.tsx");
const { pdfImageFor, prepareSvgRenderer } = await import("./logo_image.ts");
const { textSanitizer } = await import("./fonts.ts");

scope.onmessage = async ({ data: { id, model, logo } }) => {
  try {
    const image = logo ? await pdfImageFor(logo) : undefined;
    const pdf = await renderClientCopyPdf(model, image);
    // Handed over, not copied: the bytes are not used here again.
    scope.postMessage({ type: "done", id, pdf }, [pdf.buffer]);
  } catch (err) {
    scope.postMessage({
      type: "failed",
      id,
      error: err instanceof Error ? err.stack ?? err.message : String(err),
    });
  }
};

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
scope.postMessage({ type: "ready" });
