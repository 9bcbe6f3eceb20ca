// What an uploaded image may be, decided by its bytes and not by its name or
// the Content-Type it was sent with. Shared by the upload routes and the
// settings screen, which checks a file before sending it: no dependencies.
import { type ImageKind, imageSize, MAX_IMAGE_SIDE, withinLimit } from "./image_size.ts";

export type { ImageKind };

export const IMAGE_TYPES: Record<ImageKind, { mime: string; ext: string; label: string }> = {
  png: { mime: "image/png", ext: "png", label: "PNG" },
  jpeg: { mime: "image/jpeg", ext: "jpg", label: "JPEG" },
  gif: { mime: "image/gif", ext: "gif", label: "GIF" },
  webp: { mime: "image/webp", ext: "webp", label: "WebP" },
  svg: { mime: "image/svg+xml", ext: "svg", label: "SVG" },
  ico: { mime: "image/x-icon", ext: "ico", label: "ICO" },
};

const MiB = 1024 * 1024;

/** The spec's upload widget default: one file of at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * MiB;

export type UploadPurpose = "logo" | "favicon" | "image";

export interface ImageRule {
  kinds: ImageKind[];
  maxBytes: number;
  /** How the limit reads in messages. */
  maxLabel: string;
}

/** The spec: logo any image up to 5 MB; favicon x-icon, PNG or SVG up to 1 MB. */
export const IMAGE_RULES: Record<UploadPurpose, ImageRule> = {
  logo: { kinds: ["png", "jpeg", "gif", "webp", "svg"], maxBytes: 5 * MiB, maxLabel: "5 MB" },
  favicon: { kinds: ["ico", "png", "svg"], maxBytes: 1 * MiB, maxLabel: "1 MB" },
  image: {
    kinds: ["png", "jpeg", "gif", "webp", "svg", "ico"],
    maxBytes: MAX_UPLOAD_BYTES,
    maxLabel: "10 MB",
  },
};

/** The `accept` list of a file input for a purpose (a hint to the picker only). */
export const acceptList = (purpose: UploadPurpose) =>
  IMAGE_RULES[purpose].kinds.map((k) => IMAGE_TYPES[k].mime).join(",");

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => Array.from(s, (ch) => ch.charCodeAt(0));

/** How many leading bytes sniffImage looks at. */
export const SNIFF_BYTES = 4096;

/**
 * SVG is text: after an optional byte-order mark, XML declaration, comments
 * and doctype, the first element must be <svg>. An HTML page that merely
 * contains an <svg> does not start with one.
 */
function isSvg(bytes: Uint8Array): boolean {
  // Binary data decodes to replacement characters, which the pattern never matches.
  const text = new TextDecoder().decode(bytes.subarray(0, SNIFF_BYTES));
  const prolog =
    /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;
  return prolog.test(text);
}

/** The image type the bytes are, or undefined when they are none of ours. */
export function sniffImage(bytes: Uint8Array): ImageKind | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  // ICONDIR: reserved 0, type 1 (icon), then at least one image.
  if (startsWith(bytes, [0, 0, 1, 0]) && bytes.length >= 6 && (bytes[4] | (bytes[5] << 8)) > 0) {
    return "ico";
  }
  return isSvg(bytes) ? "svg" : undefined;
}

/** "a PNG, JPEG or SVG image", "an ICO, PNG or SVG image". */
const typesText = (kinds: ImageKind[]) => {
  const labels = kinds.map((k) => IMAGE_TYPES[k].label);
  const list = labels.length > 1
    ? `${labels.slice(0, -1).join(", ")} or ${labels[labels.length - 1]}`
    : labels[0];
  return `${/^[AEIOU]/.test(list) ? "an" : "a"} ${list} image`;
};

const whatOf = (purpose: UploadPurpose) => purpose === "image" ? "The image" : `The ${purpose}`;

/**
 * Why the file's type or byte size does not suit the purpose, or undefined.
 * `bytes` needs only its first SNIFF_BYTES; `size` is the whole file's.
 */
export function imageTypeProblem(
  purpose: UploadPurpose,
  bytes: Uint8Array,
  size: number,
): string | undefined {
  const rule = IMAGE_RULES[purpose];
  const what = whatOf(purpose);
  if (size === 0) return "The file is empty";
  const kind = sniffImage(bytes);
  if (!kind || !rule.kinds.includes(kind)) {
    return `${what} must be ${typesText(rule.kinds)}`;
  }
  if (size > rule.maxBytes) return `${what} must be at most ${rule.maxLabel}`;
  return undefined;
}

/**
 * Why the image's pixel size is refused (over MAX_IMAGE_SIDE either way, or
 * unreadable in a whole raster file), or undefined. With only the file's
 * start (the settings screen), a size not yet in it is left to the server.
 */
export function imageSizeProblem(
  purpose: UploadPurpose,
  bytes: Uint8Array,
  size: number,
): string | undefined {
  const kind = sniffImage(bytes);
  if (!kind) return undefined;
  const what = whatOf(purpose);
  const dims = imageSize(kind, bytes);
  const limit = `${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE}`;
  if (dims && !Number.isFinite(dims.width + dims.height)) {
    return `${what} holds an embedded image whose size cannot be read. Please export it again without it.`;
  }
  if (dims && !withinLimit(dims)) {
    return `${what} is ${dims.width} × ${dims.height} pixels; it can be at most ${limit} pixels. ` +
      "Please make it smaller and try again.";
  }
  if (!dims && kind !== "svg" && bytes.length >= size) {
    return `${what} could not be read: its size in pixels is missing. Please save it again and retry.`;
  }
  return undefined;
}

/**
 * Why the file cannot serve the purpose, or undefined when it can: its type,
 * byte size, then pixel size. `bytes` needs only its first SNIFF_BYTES
 * (the pixel size is then checked as far as they tell); `size` is the whole
 * file's.
 */
export function imageProblem(
  purpose: UploadPurpose,
  bytes: Uint8Array,
  size: number,
): string | undefined {
  return imageTypeProblem(purpose, bytes, size) ?? imageSizeProblem(purpose, bytes, size);
}
