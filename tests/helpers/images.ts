// Small real image files for upload tests, and the upload flow as the settings
// screen runs it (ask for a URL, PUT the file, hand the URL to the setting).
import { decodeBase64 } from "@oslojs/encoding";
import { crc32, deflateSync } from "node:zlib";
import { call, type TestApp } from "./test_app.ts";
import { ADAM7 } from "../../src/pdf/image_check.ts";

/** A 1×1 PNG. */
export const PNG = decodeBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
);

/** A 1×1 GIF. */
export const GIF = decodeBase64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7");

/**
 * The start of a JPEG (SOI, a JFIF APP0 segment and a 1×1 frame header):
 * enough to be judged one, and its size read, by its bytes.
 */
export const JPEG = new Uint8Array([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0x00,
  0x10,
  0x4a,
  0x46,
  0x49,
  0x46,
  0x00,
  0x01,
  0x01,
  0x00,
  0x00,
  0x01,
  0x00,
  0x01,
  0x00,
  0x00,
  // SOF0: length 11, 8 bits, height 1, width 1, one component.
  ...[0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00],
  0xff,
  0xd9,
]);

/** A 1×1 icon holding the PNG above (an ICO directory with one PNG entry). */
export const ICO = (() => {
  const header = new Uint8Array(22);
  const view = new DataView(header.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  header[6] = 1; // width
  header[7] = 1; // height
  view.setUint16(10, 1, true); // planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, PNG.length, true);
  view.setUint32(18, 22, true); // offset of the image
  return concat(header, PNG);
})();

/** An SVG logo; `inside` goes into it (for a script that must never run). */
export const svg = (inside = "", fill = "#c0392b") =>
  new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" ` +
      `width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="8" ` +
      `fill="${fill}"/><circle cx="32" cy="32" r="16" fill="#fff"/>${inside}</svg>`,
  );

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** `bytes` followed by zeros up to `size` bytes (still the same type by its first bytes). */
export const padTo = (bytes: Uint8Array, size: number) =>
  concat(bytes, new Uint8Array(size - bytes.length));

/** POST /api/objects/upload: a fresh upload URL. */
export async function requestUploadUrl(
  app: TestApp,
  cookie: string,
  purpose?: "logo" | "favicon" | "image",
): Promise<string> {
  const res = await call<{ uploadURL: string }>(app, "POST", "/api/objects/upload", {
    cookie,
    body: purpose ? { purpose } : {},
  });
  if (res.status !== 200) throw new Error(`upload URL: ${res.status} ${res.text}`);
  return res.body.uploadURL;
}

/** PUT of a file to an upload URL, raw, as the settings screen sends it. */
export async function putFile(
  app: TestApp,
  url: string,
  bytes: Uint8Array,
  options: { cookie?: string; contentType?: string } = {},
) {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": options.contentType ?? "application/octet-stream",
  };
  if (options.cookie) headers.cookie = options.cookie;
  const res = await fetch(new URL(url, app.baseUrl), {
    method: "PUT",
    headers,
    body: new Uint8Array(bytes),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, text };
}

/** The whole flow: upload `bytes` and make them the store's logo or favicon. */
export async function setBrandingImage(
  app: TestApp,
  cookie: string,
  which: "logo" | "favicon",
  bytes: Uint8Array,
  contentType: string,
): Promise<string> {
  const url = await requestUploadUrl(app, cookie, which);
  const put = await putFile(app, url, bytes, { cookie, contentType });
  if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.text}`);
  const field = which === "logo" ? "logoUrl" : "faviconUrl";
  const res = await call<Record<string, string>>(app, "PUT", `/api/admin/${which}`, {
    cookie,
    body: { [field]: url },
  });
  if (res.status !== 200) throw new Error(`${which}: ${res.status} ${res.text}`);
  return res.body[field];
}

/**
 * A real PNG of `width` × `height` pixels, made here: RGB with a gradient, or
 * (`bomb`) one bit per pixel, all black, which deflates to almost nothing: a
 * 30,000 × 30,000 one is about 110 KB and 3.6 GB once decoded.
 */
export function realPng(width: number, height: number, init: { bomb?: boolean } = {}): Uint8Array {
  const rowBytes = init.bomb ? Math.ceil(width / 8) + 1 : width * 3 + 1;
  const raw = new Uint8Array(rowBytes * height);
  if (!init.bomb) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = y * rowBytes + 1 + x * 3;
        raw[at] = (x * 255 / width) | 0;
        raw[at + 1] = (y * 255 / height) | 0;
        raw[at + 2] = 160;
      }
    }
  }
  return concat(
    PNG_SIGNATURE,
    pngHeader(width, height, init.bomb ? 1 : 8, init.bomb ? 0 : 2), // 1-bit grey, or RGB
    pngChunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))),
    PNG_END,
  );
}

/** A PNG's first eight bytes. */
export const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data and its right checksum. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)) >>> 0);
  return out;
}

/** The IHDR chunk: size, bit depth, colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA). */
export function pngHeader(
  width: number,
  height: number,
  depth: number,
  color: number,
  interlaced = false,
): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = depth;
  ihdr[9] = color;
  ihdr[12] = interlaced ? 1 : 0;
  return pngChunk("IHDR", ihdr);
}

export const PNG_END = pngChunk("IEND", new Uint8Array());

/**
 * A signature as a pad draws it: RGBA (8 bits a sample unless `depth` says
 * 16), transparent but for a dark stroke, optionally interlaced. Its pixel
 * rows before compression are `pixels`, for damaging them.
 */
export function signaturePng(
  init: { width?: number; height?: number; depth?: 8 | 16; interlaced?: boolean } = {},
): { png: Uint8Array; pixels: Uint8Array } {
  const { width = 120, height = 40, depth = 8, interlaced = false } = init;
  const sample = depth / 8;
  const rows: number[] = [];
  const passes = interlaced ? ADAM7 : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < height; y += dy) {
      if (x0 >= width) continue;
      rows.push(0); // filter: none
      for (let x = x0; x < width; x += dx) {
        const ink = Math.abs(y - height / 2 - Math.round(8 * Math.sin(x / 9))) < 2;
        for (const v of [20, 30, 60, ink ? 255 : 0]) {
          for (let i = 0; i < sample; i++) rows.push(v);
        }
      }
    }
  }
  const pixels = new Uint8Array(rows);
  return {
    png: pngOf(pngHeader(width, height, depth, 6, interlaced), pixels),
    pixels,
  };
}

/** A PNG of this header and these pixel rows, deflated into one IDAT. */
export const pngOf = (header: Uint8Array, pixels: Uint8Array) =>
  concat(PNG_SIGNATURE, header, pngChunk("IDAT", new Uint8Array(deflateSync(pixels))), PNG_END);

/**
 * Signatures that start like a good PNG (its magic bytes and a sound header
 * of 120 × 40 RGBA pixels, so their size reads well) and are damaged after.
 * react-pdf drew a blank for them, drew them scrambled, or ended its renderer on them.
 */
export function damagedSignatures(): Record<string, Uint8Array> {
  const { png, pixels } = signaturePng();
  const header = pngHeader(120, 40, 8, 6);
  const deflated = new Uint8Array(deflateSync(pixels));
  const withData = (data: Uint8Array) =>
    concat(PNG_SIGNATURE, header, pngChunk("IDAT", data), PNG_END);
  // The deflate stream's middle bytes scrambled; the chunk's own checksum made anew to match.
  const scrambled = deflated.map((b, i) => i > 4 && i < deflated.length - 6 ? b ^ 0x5a : b);
  // A row filter png-js does not know (there are five, 0-4).
  const badFilter = pixels.slice();
  badFilter[0] = 9;
  return {
    "corrupt IDAT": withData(scrambled),
    "IDAT of random bytes": withData(new Uint8Array(200).map((_, i) => (i * 131 + 7) % 256)),
    "truncated after IHDR": concat(PNG_SIGNATURE, header),
    "truncated inside IDAT": png.subarray(0, PNG_SIGNATURE.length + header.length + 30),
    "deflate stream cut short": withData(deflated.subarray(0, deflated.length >> 1)),
    "unknown row filter": pngOf(header, badFilter),
    "fewer pixels than the header says": pngOf(header, pixels.subarray(0, pixels.length >> 1)),
    // png-js unpacks 2-bit samples as bytes: it draws an interlaced one scrambled.
    "2-bit interlaced": pngOf(
      pngHeader(120, 40, 2, 0, true),
      new Uint8Array(
        ADAM7.reduce(
          (n, [x0, y0, dx, dy]) =>
            n + Math.ceil((40 - y0) / dy) * (1 + Math.ceil(Math.ceil((120 - x0) / dx) * 2 / 8)),
          0,
        ),
      ),
    ),
  };
}
