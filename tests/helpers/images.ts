// Small real image files for upload tests, and the upload flow as the settings
// screen runs it (ask for a URL, PUT the file, hand the URL to the setting).
import { decodeBase64 } from "@oslojs/encoding";
import { call, type TestApp } from "./test_app.ts";

/** A 1×1 PNG. */
export const PNG = decodeBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
);

/** A 1×1 GIF. */
export const GIF = decodeBase64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7");

/** The start of a JPEG (SOI and a JFIF APP0 segment): enough to be judged one by its bytes. */
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
