import { afterEach, describe, it } from "node:test";
import { expect } from "expect";
import { PDFDocument } from "pdf-lib";
import { PdfPool, PdfUnavailableError } from "./pdf_pool.ts";
import { clientCopy } from "../print/print_model.ts";
import type { Branding } from "../settings/settings.ts";
import { bundleFrom, maximalClient, maximalOptions } from "../../tests/helpers/quote_fixture.ts";

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
    pool = new PdfPool({ workers: 2, queue: 2, timeoutMs: 60_000 });
    expect(pool.stats()).toEqual({ workers: 0, busy: 0, queued: 0, started: 0 });
    expect(await pageCount(await pool.render(small))).toBe(1);
    expect(await pageCount(await pool.render(small))).toBe(1);
    expect(pool.stats()).toEqual({ workers: 1, busy: 0, queued: 0, started: 1 });
  });

  it("stops a render over the time limit and starts a fresh worker for the next job", async () => {
    // Far too short for the maximal quote, which takes seconds.
    pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 1000 });
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
    pool = new PdfPool({ workers: 1, queue: 1, timeoutMs: 60_000 });
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
    pool = new PdfPool({ workers: 2, queue: 0, timeoutMs: 60_000 });
    const pdfs = await Promise.all([pool.render(small), pool.render(small)]);
    for (const pdf of pdfs) expect(await pageCount(pdf)).toBe(1);
    expect(pool.stats()).toMatchObject({ workers: 2, started: 2 });
  });
});
