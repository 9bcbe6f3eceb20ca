// Where the quote PDF's logo comes from: branding.logoUrl to image bytes.
// This runs in the request (it only reads a file); decoding, checking and
// rasterizing the bytes happen in the PDF renderer process (logo_image.ts).
import { resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { DB } from "../db/database.ts";
import { type ImageKind, sniffImage } from "../uploads/image_rules.ts";
import { imageSize, withinLimit } from "../uploads/image_size.ts";
import { findUploadByUrl } from "../uploads/uploads.ts";

/** Image bytes as stored, with the format their first bytes show. */
export interface LogoBytes {
  bytes: Uint8Array;
  format: "png" | "jpg" | "svg";
}

const STATIC_DIR = fileURLToPath(new URL("../../static/", import.meta.url));
/** Larger files are not logos; reading them for every PDF would only cost memory. */
export const MAX_LOGO_BYTES = 5 * 1024 * 1024;

/** The image kinds the PDF can draw, by the name the renderer uses. */
const PDF_FORMATS = new Map<ImageKind, LogoBytes["format"]>([
  ["png", "png"],
  ["jpeg", "jpg"],
  ["svg", "svg"],
]);

/**
 * The format by content, never by file name (a ".png" holding SVG is SVG),
 * judged by the same sniffer that checks uploads.
 */
export function sniffImageFormat(bytes: Uint8Array): LogoBytes["format"] | undefined {
  const kind = sniffImage(bytes);
  return kind && PDF_FORMATS.get(kind);
}

/** The last file read, by path, size and time: every quote PDF uses the same logo. */
let fileCache: { key: string; logo: LogoBytes | undefined } | undefined;

/** A PNG, JPEG or SVG file under our own static/ folder, by its /static/ URL. */
async function staticLogo(logoUrl: string, staticDir: string): Promise<LogoBytes | undefined> {
  const root = resolve(staticDir);
  let path: string;
  try {
    // The URL parser folds "..", "%2e%2e" and friends before we look at the path.
    const { pathname } = new URL(logoUrl, "http://logo.invalid");
    if (!pathname.startsWith("/static/")) return undefined;
    path = resolve(root, decodeURIComponent(pathname.slice("/static/".length)));
  } catch {
    return undefined;
  }
  if (!path.startsWith(root + sep)) return undefined;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_LOGO_BYTES) return undefined;
    const key = `${path}\n${info.size}\n${info.mtime?.getTime()}`;
    if (fileCache?.key === key) return fileCache.logo;
    const bytes = await Deno.readFile(path);
    const format = sniffImageFormat(bytes);
    const logo = format ? { bytes, format } : undefined;
    fileCache = { key, logo };
    return logo;
  } catch {
    return undefined;
  }
}

/**
 * The one place that maps the store's `branding.logoUrl` to image bytes for
 * the PDF: a file under /static/ (the built-in /static/logo.svg unless the
 * settings name another) or an uploaded logo kept in the database
 * (/uploads/{hash}.{ext}). Anything that is not ours (another host, a path
 * outside those) gives undefined: the renderer never reaches out to the
 * network, and the PDF then prints the store name instead. GIF and WebP
 * logos also print the name: the PDF renderer draws PNG, JPEG and SVG only.
 */
export async function logoBytesFor(
  logoUrl: string,
  db?: DB,
  staticDir = STATIC_DIR,
): Promise<LogoBytes | undefined> {
  if (logoUrl.startsWith("/static/")) return await staticLogo(logoUrl, staticDir);
  if (logoUrl.startsWith("/uploads/") && db) {
    const file = await findUploadByUrl(db, logoUrl);
    const format = file && file.bytes.length <= MAX_LOGO_BYTES
      ? sniffImageFormat(file.bytes)
      : undefined;
    // Normally the logo's print copy; an upload set before copies were made
    // is sent as it is only when its declared size is within the upload limit.
    const size = file && format ? imageSize(sniffImage(file.bytes)!, file.bytes) : undefined;
    if (format !== "svg" && !(size && withinLimit(size))) return undefined;
    return file && format ? { bytes: file.bytes, format } : undefined;
  }
  return undefined;
}
