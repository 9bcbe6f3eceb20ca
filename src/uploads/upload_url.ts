import { Buffer } from "node:buffer";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** Where a file is sent: PUT /api/objects/upload/{id}?expires=…&signature=… */
export const UPLOAD_PATH_PREFIX = "/api/objects/upload/";

/** How long an upload URL can be used. */
export const UPLOAD_URL_TTL_MS = 10 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The PUT of an upload URL: its own body limit replaces the JSON one. */
export const isUploadPut = (method: string, path: string) =>
  method === "PUT" && path.startsWith(UPLOAD_PATH_PREFIX) &&
  UUID.test(path.slice(UPLOAD_PATH_PREFIX.length));

/**
 * A key of its own for upload URLs, derived from SECRET_KEY, so a signature
 * never doubles as anything made with the key that encrypts SMTP secrets.
 */
function signingKey(secretKey: Uint8Array): Buffer {
  return createHmac("sha256", secretKey).update("lensdesk upload URL v1").digest();
}

function signature(secretKey: Uint8Array, id: string, expires: number): string {
  return createHmac("sha256", signingKey(secretKey))
    .update(`PUT\n${UPLOAD_PATH_PREFIX}${id}\n${expires}`)
    .digest("base64url");
}

/** What the database keeps of a signature: its hash, so a leaked table signs nothing. */
export const signatureHash = (sig: string) => createHash("sha256").update(sig).digest("hex");

/** A relative URL on this server: it works whatever address the store is reached at. */
export function signUploadUrl(secretKey: Uint8Array, id: string, expiresAt: Date) {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const sig = signature(secretKey, id, expires);
  return { url: `${UPLOAD_PATH_PREFIX}${id}?expires=${expires}&signature=${sig}`, signature: sig };
}

export interface SignedUpload {
  id: string;
  signature: string;
  /** Past its expiry: no file may be sent to it any more. */
  expired: boolean;
}

/**
 * The upload a URL names when this server signed it and nobody changed it,
 * else undefined. `url` may be relative or absolute; an absolute one must be
 * on one of `origins`.
 */
export function verifyUploadUrl(
  secretKey: Uint8Array,
  url: string,
  origins: string[],
  now = new Date(),
): SignedUpload | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://relative.invalid");
  } catch {
    return undefined;
  }
  if (parsed.origin !== "http://relative.invalid" && !origins.includes(parsed.origin)) {
    return undefined;
  }
  const id = parsed.pathname.startsWith(UPLOAD_PATH_PREFIX)
    ? parsed.pathname.slice(UPLOAD_PATH_PREFIX.length)
    : "";
  const expiresText = parsed.searchParams.get("expires") ?? "";
  const given = parsed.searchParams.get("signature") ?? "";
  if (!UUID.test(id) || !/^\d{1,12}$/.test(expiresText) || !/^[\w-]{43}$/.test(given)) {
    return undefined;
  }
  const expires = Number(expiresText);
  const expected = Buffer.from(signature(secretKey, id, expires));
  if (!timingSafeEqual(expected, Buffer.from(given))) return undefined;
  return { id, signature: given, expired: expires * 1000 <= now.getTime() };
}
