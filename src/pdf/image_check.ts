// Whether react-pdf can draw an image, checked whole before it is kept or
// drawn. react-pdf reads a PNG with png-js: a damaged one either leaves a
// blank where it goes, or (one with an alpha channel, a palette with
// transparency, or interlaced) throws inside a zlib callback, which nothing
// can catch and which ends the renderer process. pdf-lib's decoder is no
// check for this: it skips the zlib checksum, takes some random data for
// pixels, and never returns from some deflate streams that stop short. So a
// PNG is walked here chunk by chunk, its pixels inflated by zlib itself
// (bounded by the size the header declares) and every row's filter read, as
// png-js will; what png-js draws wrongly is refused too.
import { crc32, inflateSync } from "node:zlib";
import { PDFDocument } from "pdf-lib";
import { MAX_IMAGE_SIDE } from "../uploads/image_size.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples per pixel by colour type, and the bit depths the PNG standard allows each. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** Adam7's passes: first column, first row, column step, row step. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

const u32 = (b: Uint8Array, at: number) =>
  ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const ascii = (b: Uint8Array, at: number, n: number) =>
  String.fromCharCode(...b.subarray(at, at + n));

/**
 * Why react-pdf cannot draw this PNG as it is, or undefined when it can: cut
 * short, a chunk whose checksum is wrong, a header no decoder takes, pixel
 * data that does not inflate (or inflates to another size than the header
 * says), a row with an unknown filter, or a kind png-js draws wrongly (fewer
 * than 8 bits a sample, interlaced or with a palette's transparency). Never
 * inflates more than the header declares; an image over `maxSide` pixels a
 * side is refused unread.
 */
export function pngProblem(bytes: Uint8Array, maxSide = MAX_IMAGE_SIDE): string | undefined {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) return "not a PNG";
  let at = 8;
  let header:
    | { width: number; height: number; depth: number; color: number; interlaced: boolean }
    | undefined;
  let palette = false, transparency = false, ended = false, dataDone = false;
  const data: Uint8Array[] = [];
  while (!ended) {
    if (at + 12 > bytes.length) return "cut short";
    const length = u32(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (length > bytes.length - at - 12) return "cut short";
    const body = bytes.subarray(at + 8, at + 8 + length);
    if ((crc32(bytes.subarray(at + 4, at + 8 + length)) >>> 0) !== u32(bytes, at + 8 + length)) {
      return `the ${type} chunk is damaged (checksum)`;
    }
    const first = at === 8;
    at += 12 + length;
    if (first !== (type === "IHDR")) return "no header first, or a second one";
    if (data.length > 0 && type !== "IDAT") dataDone = true;
    switch (type) {
      case "IHDR": {
        if (length !== 13) return "a malformed header";
        header = {
          width: u32(body, 0),
          height: u32(body, 4),
          depth: body[8],
          color: body[9],
          interlaced: body[12] === 1,
        };
        if (!(DEPTHS[header.color] ?? []).includes(header.depth)) return "unknown pixel format";
        if (body[10] !== 0 || body[11] !== 0 || body[12] > 1) return "unknown compression";
        if (header.width === 0 || header.height === 0) return "no pixels";
        if (header.width > maxSide || header.height > maxSide) return "too large";
        break;
      }
      case "PLTE":
        if (length === 0 || length % 3 !== 0 || length > 768) return "malformed palette";
        palette = true;
        break;
      case "tRNS":
        transparency = true;
        break;
      case "IDAT":
        if (dataDone) return "image data in pieces apart";
        data.push(body);
        break;
      case "IEND":
        ended = true;
        break;
    }
  }
  if (!header || data.length === 0) return "no image data";
  const { width, height, depth, color, interlaced } = header;
  if (color === 3 && !palette) return "no palette";
  // png-js unpacks pixels only for these, and does so byte by byte.
  if (depth < 8 && (interlaced || (color === 3 && transparency))) {
    return "fewer than 8 bits a sample, interlaced or transparent";
  }
  const bitsPerPixel = depth * CHANNELS[color];
  const passes = (interlaced ? ADAM7 : [[0, 0, 1, 1]])
    .map(([x0, y0, dx, dy]) => ({
      rows: Math.max(0, Math.ceil((height - y0) / dy)),
      columns: Math.max(0, Math.ceil((width - x0) / dx)),
    }))
    .filter((p) => p.rows > 0 && p.columns > 0)
    .map((p) => ({ rows: p.rows, rowBytes: 1 + Math.ceil((p.columns * bitsPerPixel) / 8) }));
  const expected = passes.reduce((n, p) => n + p.rows * p.rowBytes, 0);
  let pixels: Uint8Array;
  try {
    pixels = inflateSync(joined(data), { maxOutputLength: expected });
  } catch {
    return "the image data is damaged";
  }
  if (pixels.length !== expected) return "the image data is cut short";
  let row = 0;
  for (const pass of passes) {
    for (let r = 0; r < pass.rows; r++, row += pass.rowBytes) {
      if (pixels[row] > 4) return "the image data is damaged (row filter)";
    }
  }
  return undefined;
}

function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Whether react-pdf can draw the image: a PNG checked whole (pngProblem), a
 * JPEG's frame header read by pdf-lib (react-pdf hands JPEG bytes to the PDF
 * as they are).
 */
export async function imageDecodes(bytes: Uint8Array, format: "png" | "jpg"): Promise<boolean> {
  if (format === "png") return pngProblem(bytes) === undefined;
  try {
    await (await PDFDocument.create()).embedJpg(bytes);
    return true;
  } catch {
    return false;
  }
}
