// The pixel size an image declares, read from its headers without decoding
// it: what a decoder would allocate. A PNG of 30,000 × 30,000 pixels fits in
// under 1 MB and takes 3.6 GB to decode, so the size is checked before
// anything decodes it. Pure and dependency-free: the settings screen runs it too.

/** The image formats the store takes (image_rules.ts tells them apart by their bytes). */
export type ImageKind = "png" | "jpeg" | "gif" | "webp" | "svg" | "ico";

export interface ImageSize {
  width: number;
  height: number;
}

/** The largest width or height an uploaded image may have. */
export const MAX_IMAGE_SIDE = 4096;

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) =>
  ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const u32le = (b: Uint8Array, at: number) =>
  b[at] + (b[at + 1] << 8) + (b[at + 2] << 16) + ((b[at + 3] << 24) >>> 0);
const ascii = (b: Uint8Array, at: number, n: number) =>
  String.fromCharCode(...b.subarray(at, at + n));
const larger = (a: ImageSize | undefined, b: ImageSize): ImageSize =>
  a ? { width: Math.max(a.width, b.width), height: Math.max(a.height, b.height) } : b;

/** IHDR, the first chunk. */
function pngSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 24 || ascii(b, 12, 4) !== "IHDR") return undefined;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

/** The largest frame header (SOF) before the scan starts. */
function jpegSize(b: Uint8Array): ImageSize | undefined {
  let at = 2;
  let size: ImageSize | undefined;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return size;
    const marker = b[at + 1];
    if (marker === 0xff) { // fill byte
      at += 1;
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return size; // end, or the scan: no frame header after
    const length = u16be(b, at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 &&
      marker !== 0xcc;
    if (isFrame && at + 9 <= b.length) {
      size = larger(size, { width: u16be(b, at + 7), height: u16be(b, at + 5) });
    }
    at += 2 + length;
  }
  return size;
}

/** The logical screen, and every frame (a frame may be larger than the screen). */
function gifSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 13) return undefined;
  let size: ImageSize | undefined = { width: u16le(b, 6), height: u16le(b, 8) };
  let at = 13 + (b[10] & 0x80 ? 3 * 2 ** ((b[10] & 7) + 1) : 0);
  const skipSubBlocks = () => {
    while (at < b.length && b[at] !== 0) at += b[at] + 1;
    at += 1;
  };
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) { // extension: label, then sub-blocks
      at += 2;
      skipSubBlocks();
    } else if (block === 0x2c) { // image descriptor
      if (at + 10 > b.length) break;
      const frame = {
        width: u16le(b, at + 1) + u16le(b, at + 5),
        height: u16le(b, at + 3) + u16le(b, at + 7),
      };
      size = larger(size, frame);
      const packed = b[at + 9];
      at += 10 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
      at += 1; // LZW minimum code size
      skipSubBlocks();
    } else {
      break;
    }
  }
  return size;
}

/** VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas). */
function webpSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 30) return undefined;
  const chunk = ascii(b, 12, 4);
  const data = 20;
  if (chunk === "VP8 " && b[data + 3] === 0x9d && b[data + 4] === 0x01 && b[data + 5] === 0x2a) {
    return { width: u16le(b, data + 6) & 0x3fff, height: u16le(b, data + 8) & 0x3fff };
  }
  if (chunk === "VP8L" && b[data] === 0x2f) {
    const bits = u32le(b, data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { width: u24le(b, data + 4) + 1, height: u24le(b, data + 7) + 1 };
  }
  return undefined;
}

/** Every entry: its directory size, or the PNG or bitmap header it points to, whichever is larger. */
function icoSize(b: Uint8Array): ImageSize | undefined {
  const count = u16le(b, 4);
  let size: ImageSize | undefined;
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    if (entry + 16 > b.length) return size;
    size = larger(size, { width: b[entry] || 256, height: b[entry + 1] || 256 });
    const offset = u32le(b, entry + 12);
    const image = b.subarray(offset);
    if (image.length >= 24 && image[0] === 0x89 && ascii(image, 1, 3) === "PNG") {
      const png = pngSize(image);
      if (png) size = larger(size, png);
    } else if (image.length >= 12) {
      // BITMAPINFOHEADER: its height counts the image and its mask.
      size = larger(size, {
        width: Math.abs(u32le(image, 4) | 0),
        height: Math.ceil(Math.abs(u32le(image, 8) | 0) / 2),
      });
    }
  }
  return size;
}

const UNITS: Record<string, number> = {
  "": 1,
  px: 1,
  pt: 96 / 72,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  em: 16,
  ex: 8,
};

/** A length attribute in pixels; undefined for a percentage or anything unreadable. */
function svgLength(value: string | undefined): number | undefined {
  const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? "");
  if (!m || !(m[2].toLowerCase() in UNITS)) return undefined;
  const px = Number(m[1]) * UNITS[m[2].toLowerCase()];
  return Number.isFinite(px) && px > 0 ? px : undefined;
}

/**
 * The size an SVG renders at: its width and height, or where those are
 * missing or relative, its viewBox (as resvg and browsers size it). Raster
 * images embedded as data: URLs count too, at their own size: a renderer
 * decodes them whole before scaling them.
 */
function svgSize(b: Uint8Array): ImageSize | undefined {
  const text = new TextDecoder().decode(b);
  const root = /<svg\b([^>]*)>/i.exec(text)?.[1] ?? "";
  const attr = (name: string) =>
    new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(root)?.slice(1)
      .find((v) => v !== undefined);
  const box = (attr("viewBox") ?? "").trim().split(/[\s,]+/).map(Number);
  const viewBox = box.length === 4 && box.every(Number.isFinite) && box[2] > 0 && box[3] > 0
    ? { width: box[2], height: box[3] }
    : undefined;
  let width = svgLength(attr("width"));
  let height = svgLength(attr("height"));
  if (viewBox) {
    width ??= height !== undefined ? height * viewBox.width / viewBox.height : viewBox.width;
    height ??= width * viewBox.height / viewBox.width;
  }
  let size: ImageSize | undefined = width !== undefined && height !== undefined
    ? { width: Math.ceil(width), height: Math.ceil(height) }
    : undefined;
  for (
    const m of text.matchAll(/data:image\/(png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/=\s]{16,})/gi)
  ) {
    // The headers are at the start: a few kilobytes of the image are enough.
    const head = m[2].replace(/\s/g, "").slice(0, 87_380);
    let bytes: Uint8Array;
    try {
      bytes = Uint8Array.from(
        atob(head.slice(0, head.length - head.length % 4)),
        (c) => c.charCodeAt(0),
      );
    } catch {
      continue;
    }
    const kind = m[1].toLowerCase() === "jpg" ? "jpeg" : m[1].toLowerCase() as ImageKind;
    const inner = imageSize(kind, bytes);
    // An embedded image whose size cannot be read is taken as too large.
    size = larger(size, inner ?? { width: Infinity, height: Infinity });
  }
  return size;
}

/** The declared size of an image of `kind`, or undefined when its headers do not say. */
export function imageSize(kind: ImageKind, bytes: Uint8Array): ImageSize | undefined {
  switch (kind) {
    case "png":
      return pngSize(bytes);
    case "jpeg":
      return jpegSize(bytes);
    case "gif":
      return gifSize(bytes);
    case "webp":
      return webpSize(bytes);
    case "ico":
      return icoSize(bytes);
    case "svg":
      return svgSize(bytes);
  }
}

/** Whether a size is within MAX_IMAGE_SIDE both ways. */
export const withinLimit = (size: ImageSize) =>
  size.width <= MAX_IMAGE_SIDE && size.height <= MAX_IMAGE_SIDE;
