import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import { readBodyWithin, requireUser } from "../../src/http/middleware.ts";
import { PdfUnavailableError } from "../../src/pdf/pdf_pool.ts";
import {
  faviconSchema,
  logoSchema,
  storeLogoSchema,
  uploadRequestSchema,
} from "../../src/schemas/uploads.ts";
import { isUuid } from "../../src/db/ids.ts";
import {
  type BrandingImage,
  findUploadByUrl,
  insertUploadSlot,
  receiveUpload,
  updateBrandingImage,
  type UploadResult,
  writeStoreLogo,
} from "../../src/uploads/uploads.ts";
import { assertChainWide, assertWorksIn } from "../../src/stores/scope.ts";

export const uploadsApi = new Hono<AppEnv>();
const admin = requireUser("ADMIN", "OWNER");

function unwrap<T>(result: UploadResult<T>): T {
  if (result.ok) return result.value;
  throw new HttpError(result.status, result.message);
}

/** Where an absolute upload URL may point: this store's public address, or the one in use. */
const originsOf = (c: Context<AppEnv>) => [
  new URL(c.var.config.appUrl).origin,
  new URL(c.req.url).origin,
];

uploadsApi.post("/objects/upload", admin, async (c) => {
  const { purpose } = await readJson(c, uploadRequestSchema);
  const uploadURL = await insertUploadSlot(
    c.var.db,
    c.var.config.secretKey,
    purpose,
    c.var.user!.id,
  );
  return c.json({ uploadURL });
});

// The file itself, raw. Not JSON: the app-wide body limit gives this path
// MAX_UPLOAD_BYTES instead of 1 MiB (routes/app.ts); each URL then caps the
// body at its purpose's size.
uploadsApi.put("/objects/upload/:id", admin, async (c) => {
  const stored = unwrap(
    await receiveUpload(
      c.var.db,
      c.var.config.secretKey,
      c.req.url,
      originsOf(c),
      c.var.user!.id,
      (limit) => readBodyWithin(c.req.raw, limit),
    ),
  );
  return c.json(stored);
});

async function setBrandingImage(
  c: Context<AppEnv>,
  which: BrandingImage,
  url: string,
  storeId?: string,
) {
  let result;
  try {
    result = await updateBrandingImage(
      c.var.db,
      c.var.config.secretKey,
      which,
      url,
      originsOf(c),
      auditActor(c),
      (bytes, kind) => c.var.pdf.printCopy(bytes, kind),
      storeId,
    );
  } catch (err) {
    if (err instanceof PdfUnavailableError) {
      throw new HttpError(
        503,
        "The logo's print copy cannot be made right now. Please try again in a moment.",
        undefined,
        { "Retry-After": String(err.retryAfterSeconds) },
      );
    }
    throw err;
  }
  const served = unwrap(result);
  return c.json(which === "logo" ? { logoUrl: served } : { faviconUrl: served });
}

// The chain's logo and favicon (a store has none of its own yet): the owner's
// and chain admins' (src/stores/scope.ts), as the rest of the chain's settings.
uploadsApi.put("/admin/logo", admin, async (c) => {
  assertChainWide(c);
  const { logoUrl } = await readJson(c, logoSchema);
  return setBrandingImage(c, "logo", logoUrl);
});

// A store's own logo (its pages, printouts, PDFs and e-mails), or null: the
// chain's again. The owner's, a chain admin's, or an admin of that store's.
uploadsApi.put("/admin/stores/:id/logo", admin, async (c) => {
  const storeId = c.req.param("id");
  const store = isUuid(storeId)
    ? await c.var.db.selectFrom("stores").select("id").where("id", "=", storeId)
      .executeTakeFirst()
    : undefined;
  if (!store) throw new HttpError(404, "Store not found");
  await assertWorksIn(c, store.id);
  const { logoUrl } = await readJson(c, storeLogoSchema);
  if (logoUrl !== null) return setBrandingImage(c, "logo", logoUrl, store.id);
  await c.var.db.transaction().execute((trx) =>
    writeStoreLogo(trx, store.id, { logoUrl: null, logoPrintUrl: null }, auditActor(c))
  );
  return c.json({ logoUrl: null });
});

uploadsApi.put("/admin/favicon", admin, async (c) => {
  assertChainWide(c);
  const { faviconUrl } = await readJson(c, faviconSchema);
  return setBrandingImage(c, "favicon", faviconUrl);
});

/**
 * What an uploaded file may do when opened on its own: nothing. An SVG is a
 * document that can hold scripts; sandboxed, with no script source, none runs.
 */
export const UPLOAD_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** GET /uploads/{hash}.{ext}: public, since the logo shows on the sign-in page. */
export const uploadedFiles = new Hono<AppEnv>();

uploadedFiles.get("/:name", async (c) => {
  const file = await findUploadByUrl(c.var.db, c.req.path);
  if (!file) return c.json({ message: "Not found" }, 404);
  const etag = `"${file.contentHash}"`;
  const headers = {
    "Content-Type": file.contentType,
    // The name is the content's hash: a new file is a new URL.
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: etag,
  };
  if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
  return c.body(file.bytes, 200, headers);
});
