// Small real image files for upload tests, and the upload flow as the settings
// screen runs it (ask for a URL, PUT the file, hand the URL to the setting).
import { decodeBase64 } from "@oslojs/encoding";
import { crc32, deflateSync } from "node:zlib";
import { call, type TestApp } from "./test_app.ts";

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
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)) >>> 0);
    return out;
  };
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = init.bomb ? 1 : 8; // bit depth
  ihdr[9] = init.bomb ? 0 : 2; // greyscale, or RGB
  return concat(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))),
    chunk("IEND", new Uint8Array()),
  );
}
