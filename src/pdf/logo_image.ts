// Turns logo bytes into an image react-pdf can draw, inside the PDF renderer process.
// react-pdf draws PNG and JPEG only; an SVG logo (the built-in one is) is
// rasterized with resvg, a well-kept SVG renderer compiled to WebAssembly,
// which draws from the file alone: it never loads what an SVG links to.
import { Buffer } from "node:buffer";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import type { LogoBytes } from "./logo_source.ts";
import { fontPath } from "./fonts.ts";
import { IMAGE_TYPES, type ImageKind } from "../uploads/image_rules.ts";
import { imageSize, withinLimit } from "../uploads/image_size.ts";
import { imageDecodes } from "./image_check.ts";

/** What react-pdf's <Image src> takes for bytes, with the image's pixel size. */
export interface PdfImage {
  data: Buffer;
  format: "png" | "jpg";
  /** Pixels, read from the headers: the PDF draws the logo at this aspect ratio. */
  width: number;
  height: number;
}

/**
 * Pixel height of a rasterized SVG: the logo prints at most about 0.65 in
 * tall, so this is over 400 dpi; the width is capped too, so an SVG with an
 * absurd aspect ratio cannot ask for a huge bitmap.
 */
const RASTER_HEIGHT = 288;
const RASTER_MAX_WIDTH = 1600;

let wasmReady: Promise<void> | undefined;
let fontBuffers: Promise<Uint8Array[]> | undefined;

/**
 * Compiles resvg and reads the fonts it sets SVG text in (the renderer has no
 * system fonts; the PDF's own typeface serves). A renderer does this while it
 * starts, so no render's time limit pays for it.
 */
export function prepareSvgRenderer(): Promise<Uint8Array[]> {
  wasmReady ??= readFile(
    fileURLToPath(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm")),
  ).then((wasm) => initWasm(wasm));
  fontBuffers ??= Promise.all(
    ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map(async (f) =>
      new Uint8Array(await readFile(fontPath(f)))
    ),
  );
  return wasmReady.then(() => fontBuffers!);
}

async function svgToPng(svg: Uint8Array): Promise<Uint8Array> {
  const font = { fontBuffers: await prepareSvgRenderer(), defaultFontFamily: "DejaVu Sans" };
  const probe = new Resvg(svg, { font });
  const { width, height } = probe;
  probe.free();
  if (!(width > 0 && height > 0)) throw new Error("The SVG has no size");
  const zoom = Math.min(RASTER_HEIGHT / height, RASTER_MAX_WIDTH / width);
  const resvg = new Resvg(svg, { font, fitTo: { mode: "zoom", value: zoom } });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

async function prepare(logo: LogoBytes): Promise<PdfImage | undefined> {
  try {
    const data = logo.format === "svg" ? await svgToPng(logo.bytes) : logo.bytes;
    const format = logo.format === "jpg" ? "jpg" : "png";
    const size = imageSize(format === "jpg" ? "jpeg" : "png", data);
    if (!size || !(size.width > 0 && size.height > 0)) return undefined;
    const image: PdfImage = { data: Buffer.from(data), format, ...size };
    // react-pdf would leave a blank hole for a damaged image, or (a PNG whose
    // pixels png-js cannot inflate) end the renderer: the store name prints instead.
    return await imageDecodes(image.data, image.format) ? image : undefined;
  } catch {
    // A broken SVG: the header prints the store name instead.
    return undefined;
  }
}

/** The last logo prepared, by content: a store has one logo, sent with every job. */
let cache: { digest: string; image: Promise<PdfImage | undefined> } | undefined;

/** The logo as react-pdf draws it, or undefined when it cannot be drawn. */
export async function pdfImageFor(logo: LogoBytes): Promise<PdfImage | undefined> {
  const hash = await crypto.subtle.digest("SHA-256", logo.bytes as Uint8Array<ArrayBuffer>);
  const digest = `${logo.format}:${Buffer.from(hash).toString("hex")}`;
  if (cache?.digest !== digest) cache = { digest, image: prepare(logo) };
  return await cache.image;
}

/**
 * The print copy of an uploaded logo: a PNG at most RASTER_HEIGHT pixels high
 * and RASTER_MAX_WIDTH wide (never enlarged), which the print pages and the
 * PDF use instead of the upload. An SVG is rasterized as for the PDF; a PNG,
 * JPEG or GIF is drawn scaled down by resvg as an SVG <image> of its own size.
 * Empty when resvg draws nothing of it (WebP, which it does not decode, or a
 * damaged file): the logo then has no copy. Its declared size is checked
 * again first; this runs in the renderer, under its memory limit, whatever
 * reaches it, and an image that breaks the renderer fails the job.
 */
export async function printCopyOf(kind: ImageKind, bytes: Uint8Array): Promise<Uint8Array> {
  const size = imageSize(kind, bytes);
  if (kind !== "svg" && (!size || !withinLimit(size))) {
    throw new Error("image too large or unreadable");
  }
  if (kind === "svg") return await svgToPng(bytes);
  if (kind === "ico") return new Uint8Array();
  const { width, height } = size!;
  const wrapper = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<image width="${width}" height="${height}" href="data:${IMAGE_TYPES[kind].mime};base64,${
        Buffer.from(bytes).toString("base64")
      }"/></svg>`,
  );
  const zoom = Math.min(1, RASTER_HEIGHT / height, RASTER_MAX_WIDTH / width);
  const font = { fontBuffers: await prepareSvgRenderer(), defaultFontFamily: "DejaVu Sans" };
  const resvg = new Resvg(wrapper, { font, fitTo: { mode: "zoom", value: zoom } });
  try {
    const image = resvg.render();
    try {
      // A format resvg cannot decode comes out fully transparent.
      const pixels = image.pixels;
      let drawn = false;
      for (let i = 3; i < pixels.length && !drawn; i += 4) drawn = pixels[i] !== 0;
      return drawn ? image.asPng() : new Uint8Array();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
