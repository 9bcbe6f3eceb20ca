import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import {
  IMAGE_RULES,
  IMAGE_TYPES,
  type ImageKind,
  imageProblem,
  imageSizeProblem,
  imageTypeProblem,
  sniffImage,
  type UploadPurpose,
} from "./image_rules.ts";
import { signatureHash, signUploadUrl, UPLOAD_URL_TTL_MS, verifyUploadUrl } from "./upload_url.ts";

/*
 * Uploads live in PostgreSQL (bytea): the same on PGlite and on a server, and
 * in every backup of the database. A file goes in through a signed, single-use
 * upload URL and comes out under a name made of its content hash.
 */

export type UploadResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 403 | 409 | 410 | 413 | 415; message: string };

const fail = (status: 400 | 403 | 409 | 410 | 413 | 415, message: string) =>
  ({ ok: false, status, message }) as const;

const INVALID_URL = "This upload URL is not valid";

/** Served files: /uploads/{sha-256 hex}.{ext}. */
const SERVED = /^\/uploads\/([0-9a-f]{64})\.([a-z]+)$/;

export const servedUrl = (contentHash: string, kind: ImageKind) =>
  `/uploads/${contentHash}.${IMAGE_TYPES[kind].ext}`;

/** Upload slots never used go after an hour; uploaded files nobody uses after a day. */
async function deleteStaleUploads(db: DB, now: Date) {
  const hour = 60 * 60 * 1000;
  await db.deleteFrom("uploadedFiles").where((eb) =>
    eb.or([
      eb.and([
        eb("completedAt", "is", null),
        eb("expiresAt", "<", new Date(now.getTime() - hour)),
      ]),
      eb.and([
        eb("completedAt", "<", new Date(now.getTime() - 24 * hour)),
        eb.not(eb.exists(
          eb.selectFrom("settings").select(sql.lit(1).as("one")).where(
            sql<boolean>`position(uploaded_files.content_hash in
              coalesce(settings.logo_url, '') || ' ' || coalesce(settings.favicon_url, '') || ' ' ||
              coalesce(settings.logo_print_url, '')) > 0`,
          ),
        )),
      ]),
    ])
  ).execute();
}

/**
 * A new upload slot for `purpose` and the URL to PUT the file to: signed with
 * the secret key, usable once, for UPLOAD_URL_TTL_MS.
 */
export async function insertUploadSlot(
  db: DB,
  secretKey: Uint8Array,
  purpose: UploadPurpose,
  createdBy: string,
  now = new Date(),
): Promise<string> {
  await deleteStaleUploads(db, now);
  const id = crypto.randomUUID();
  const expiresAt = new Date(now.getTime() + UPLOAD_URL_TTL_MS);
  const { url, signature } = signUploadUrl(secretKey, id, expiresAt);
  await db.insertInto("uploadedFiles").values({
    id,
    uploadTokenHash: signatureHash(signature),
    purpose,
    maxBytes: IMAGE_RULES[purpose].maxBytes,
    expiresAt,
    createdBy,
  }).execute();
  return url;
}

/** The slot a signed URL names, when the URL is genuine and the slot exists. */
async function findSlot(db: DB, secretKey: Uint8Array, url: string, origins: string[]) {
  const signed = verifyUploadUrl(secretKey, url, origins);
  if (!signed) return undefined;
  const slot = await db.selectFrom("uploadedFiles")
    .select(["id", "purpose", "maxBytes", "expiresAt", "completedAt", "contentHash", "createdBy"])
    .where("id", "=", signed.id)
    .where("uploadTokenHash", "=", signatureHash(signed.signature))
    .executeTakeFirst();
  return slot ? { ...slot, expired: signed.expired } : undefined;
}

/**
 * Stores the file sent to an upload URL by the user it was issued to.
 * `readBody(limit)` reads the request body, refusing (by throwing) past
 * `limit` bytes; it is only called once the URL has proved good, so a bad URL
 * costs no upload.
 */
export async function receiveUpload(
  db: DB,
  secretKey: Uint8Array,
  url: string,
  origins: string[],
  /** Who sends the file: only the user the URL was issued to may. */
  userId: string,
  readBody: (limit: number) => Promise<Uint8Array>,
  now = new Date(),
): Promise<UploadResult<{ contentType: string; size: number }>> {
  const slot = await findSlot(db, secretKey, url, origins);
  if (!slot) return fail(403, INVALID_URL);
  // A URL seen by someone else (a shared screen, a log) is of no use to them.
  if (slot.createdBy !== userId) return fail(403, "This upload URL was issued to someone else");
  if (slot.completedAt) return fail(409, "This upload URL has already been used");
  if (slot.expired || slot.expiresAt <= now) {
    return fail(410, "This upload URL has expired. Please try again.");
  }
  const bytes = await readBody(slot.maxBytes);
  if (bytes.length === 0) return fail(400, "The file is empty");
  const purpose = slot.purpose as UploadPurpose;
  const wrongType = imageTypeProblem(purpose, bytes, bytes.length);
  if (wrongType) return fail(415, wrongType);
  // Read from its headers before anything decodes it: a small file can declare a huge image.
  const tooLarge = imageSizeProblem(purpose, bytes, bytes.length);
  if (tooLarge) return fail(400, tooLarge);
  const kind = sniffImage(bytes)!;
  const done = await db.updateTable("uploadedFiles").set({
    data: bytes,
    byteSize: bytes.length,
    contentType: IMAGE_TYPES[kind].mime,
    contentHash: createHash("sha256").update(bytes).digest("hex"),
    completedAt: now,
  }).where("id", "=", slot.id).where("completedAt", "is", null)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  // Two requests raced for one URL: the other one won.
  if (Number(done.numUpdatedRows) !== 1) return fail(409, "This upload URL has already been used");
  return { ok: true, value: { contentType: IMAGE_TYPES[kind].mime, size: bytes.length } };
}

export type BrandingImage = "logo" | "favicon";

/**
 * Makes a completed upload the store's logo or favicon. Only a URL this server
 * issued is accepted, and the file is judged again by its bytes and size
 * against the rule for `which`, whatever it was uploaded for.
 */
export async function updateBrandingImage(
  db: DB,
  secretKey: Uint8Array,
  which: BrandingImage,
  url: string,
  origins: string[],
  actor: AuditActor,
  /**
   * Makes the logo's print copy, away from the server (the PDF renderer):
   * rejects when the image cannot be drawn, or with PdfUnavailableError.
   */
  printCopy: (bytes: Uint8Array, kind: ImageKind) => Promise<Uint8Array>,
  /** A store's own logo (a chain's store: the stores row), else the chain's (settings). */
  storeId?: string,
): Promise<UploadResult<string>> {
  const slot = await findSlot(db, secretKey, url, origins);
  if (!slot) return fail(400, `The ${which} must be a file uploaded to this store`);
  if (!slot.completedAt || !slot.contentHash) {
    return fail(400, `The ${which} upload has not completed`);
  }
  const file = await db.selectFrom("uploadedFiles").select(["data", "byteSize"])
    .where("id", "=", slot.id).executeTakeFirstOrThrow();
  const bytes = file.data ?? new Uint8Array();
  const problem = imageProblem(which, bytes, bytes.length);
  if (problem) return fail(400, problem);
  const kind = sniffImage(bytes)!;
  const served = servedUrl(slot.contentHash, kind);
  // A logo gets its print copy now, once: print pages and the PDF show that
  // PNG, so they never make a browser or the renderer decode the upload. One
  // the renderer draws nothing of (WebP, which it does not decode) has none:
  // print pages show it as uploaded and the PDF tries it as before. One that
  // breaks the renderer (over its memory limit, say) is refused.
  let copy: Uint8Array | undefined;
  if (which === "logo") {
    try {
      copy = await printCopy(bytes, kind);
    } catch (err) {
      if ((err as { name?: string })?.name === "PdfUnavailableError") throw err;
      return fail(400, "The logo could not be drawn. Please try another image file.");
    }
  }
  const now = new Date();
  if (storeId && which === "logo") {
    await db.transaction().execute(async (trx) => {
      const printUrl = copy?.length ? await insertPrintCopy(trx, copy, actor, now) : null;
      await writeStoreLogo(trx, storeId, { logoUrl: served, logoPrintUrl: printUrl }, actor, now);
    });
    return { ok: true, value: served };
  }
  await db.transaction().execute(async (trx) => {
    const field = which === "logo" ? "logoUrl" : "faviconUrl";
    const before = await trx.selectFrom("settings").select(field).where("id", "=", 1).forUpdate()
      .executeTakeFirstOrThrow();
    const printUrl = copy?.length ? await insertPrintCopy(trx, copy, actor, now) : null;
    await trx.updateTable("settings")
      .set({
        ...(which === "logo"
          ? { logoUrl: served, logoPrintUrl: printUrl }
          : { faviconUrl: served }),
        updatedAt: now,
      })
      .where("id", "=", 1).execute();
    await recordAudit(trx, actor, `settings.${which}`, "settings", "1", {
      url: served,
      changes: [{ field, from: (before as Record<string, string | null>)[field], to: served }],
    });
  });
  return { ok: true, value: served };
}

/**
 * A store's logo and its print copy (null, null: back to the chain's), with
 * the change in the audit log under the store.
 */
export async function writeStoreLogo(
  trx: DB,
  storeId: string,
  logo: { logoUrl: string | null; logoPrintUrl: string | null },
  actor: AuditActor,
  now = new Date(),
): Promise<void> {
  const before = await trx.selectFrom("stores").select("logoUrl").where("id", "=", storeId)
    .forUpdate().executeTakeFirstOrThrow();
  await trx.updateTable("stores").set({ ...logo, updatedAt: now }).where("id", "=", storeId)
    .execute();
  await recordAudit(trx, actor, "settings.store_logo", "store", storeId, {
    url: logo.logoUrl,
    changes: [{ field: "logoUrl", from: before.logoUrl, to: logo.logoUrl }],
  }, storeId);
}

/** Stores a print copy (a PNG) as a completed upload of its own; its served URL. */
async function insertPrintCopy(trx: DB, png: Uint8Array, actor: AuditActor, now: Date) {
  const contentHash = createHash("sha256").update(png).digest("hex");
  await trx.insertInto("uploadedFiles").values({
    id: crypto.randomUUID(),
    // Never an upload URL: a random value nobody holds keeps the column unique.
    uploadTokenHash: createHash("sha256").update(crypto.randomUUID()).digest("hex"),
    purpose: "logo_print",
    maxBytes: Math.max(1, png.length),
    expiresAt: now,
    contentType: IMAGE_TYPES.png.mime,
    byteSize: png.length,
    data: png,
    contentHash,
    completedAt: now,
    createdBy: actor.id,
  }).execute();
  return servedUrl(contentHash, "png");
}

/**
 * The bytes and type of a file this server serves, by its URL
 * (/uploads/{hash}.{ext}), or undefined. The PDF uses it to embed the logo.
 */
export async function findUploadByUrl(
  db: DB,
  url: string,
): Promise<
  { bytes: Uint8Array<ArrayBuffer>; contentType: string; contentHash: string } | undefined
> {
  const match = SERVED.exec(url.split(/[?#]/)[0]);
  if (!match) return undefined;
  const [, contentHash, ext] = match;
  const row = await db.selectFrom("uploadedFiles").select(["data", "contentType"])
    .where("contentHash", "=", contentHash).where("completedAt", "is not", null)
    .limit(1).executeTakeFirst();
  if (!row?.data || !row.contentType) return undefined;
  const kind = sniffImage(row.data);
  if (!kind || IMAGE_TYPES[kind].ext !== ext) return undefined;
  // A copy of its own: drivers may hand back a view into a larger buffer.
  return { bytes: new Uint8Array(row.data), contentType: IMAGE_TYPES[kind].mime, contentHash };
}
