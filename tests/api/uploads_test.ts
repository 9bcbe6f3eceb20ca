// One engine: files on disk and their checks by bytes; the database holds only their names.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import {
  concat,
  GIF,
  ICO,
  JPEG,
  padTo,
  PNG,
  putFile,
  realPng,
  requestUploadUrl,
  setBrandingImage,
  svg,
} from "../helpers/images.ts";
import { encodeBase64 } from "@oslojs/encoding";
import { findUploadByUrl, insertUploadSlot } from "../../src/uploads/uploads.ts";
import { signUploadUrl } from "../../src/uploads/upload_url.ts";
import { UPLOAD_CSP } from "../../routes/api/uploads.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { pdfImageCount } from "../../src/pdf/pdf_text.ts";
import { useTestApp } from "../helpers/suite.ts";

const MiB = 1024 * 1024;

let app: TestApp, admin: string, adminId: string, owner: string, optician: string;

useTestApp(async (started) => {
  ({ app } = started);
  const a = await createTestUser(app.db, { role: "ADMIN" });
  adminId = a.id;
  admin = await sessionCookieFor(app.db, a.id);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  optician = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
});

const setLogo = (logoUrl: string, cookie = admin) =>
  call<{ logoUrl?: string; message?: string }>(app, "PUT", "/api/admin/logo", {
    cookie,
    body: { logoUrl },
  });
const setFavicon = (faviconUrl: string, cookie = admin) =>
  call<{ faviconUrl?: string; message?: string }>(app, "PUT", "/api/admin/favicon", {
    cookie,
    body: { faviconUrl },
  });
const settingsRow = () =>
  app.db.selectFrom("settings").select(["logoUrl", "logoPrintUrl", "faviconUrl"])
    .executeTakeFirstOrThrow();

describe("POST /api/objects/upload", () => {
  it("gives admins and owners a signed upload URL on this server, valid for minutes", async () => {
    for (const cookie of [admin, owner]) {
      const res = await call<{ uploadURL: string }>(app, "POST", "/api/objects/upload", {
        cookie,
        body: {},
      });
      expect(res.status).toBe(200);
      const url = new URL(res.body.uploadURL, app.baseUrl);
      expect(res.body.uploadURL.startsWith("/api/objects/upload/")).toBe(true);
      expect(url.searchParams.get("signature")).toMatch(/^[\w-]{43}$/);
      const expires = Number(url.searchParams.get("expires")) * 1000;
      expect(expires - Date.now()).toBeGreaterThan(60_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    }
  });

  it("refuses opticians (403) and signed-out callers (401)", async () => {
    const asOptician = await call(app, "POST", "/api/objects/upload", {
      cookie: optician,
      body: {},
    });
    expect(asOptician.status).toBe(403);
    const signedOut = await call(app, "POST", "/api/objects/upload", { body: {} });
    expect(signedOut.status).toBe(401);
    const badPurpose = await call(app, "POST", "/api/objects/upload", {
      cookie: admin,
      body: { purpose: "script" },
    });
    expect(badPurpose.status).toBe(400);
  });
});

describe("PUT to an upload URL", () => {
  it("stores the file once: the same URL again is a 409", async () => {
    const url = await requestUploadUrl(app, admin, "logo");
    const first = await putFile(app, url, PNG, { cookie: admin, contentType: "image/png" });
    expect(first).toMatchObject({
      status: 200,
      body: { contentType: "image/png", size: PNG.length },
    });
    const again = await putFile(app, url, PNG, { cookie: admin, contentType: "image/png" });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("already been used");
  });

  it("refuses HTML dressed as a PNG, by its bytes", async () => {
    const url = await requestUploadUrl(app, admin);
    const html = new TextEncoder().encode(
      "<!doctype html><html><body><script>alert(1)</script><svg></svg></body></html>",
    );
    const res = await putFile(app, url, html, { cookie: admin, contentType: "image/png" });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe("The image must be a PNG, JPEG, GIF, WebP, SVG or ICO image");
    // Nothing was stored, so the URL cannot become the logo.
    const logo = await setLogo(url);
    expect(logo.status).toBe(400);
    expect(logo.body.message).toBe("The logo upload has not completed");
  });

  it("caps the body at the purpose's size: a 6 MB logo is a 413", async () => {
    const url = await requestUploadUrl(app, admin, "logo");
    const res = await putFile(app, url, padTo(PNG, 6 * MiB), {
      cookie: admin,
      contentType: "image/png",
    });
    expect(res.status).toBe(413);
    // The app-wide 1 MiB JSON limit does not apply here: 2 MB is fine.
    const ok = await putFile(app, await requestUploadUrl(app, admin, "logo"), padTo(PNG, 2 * MiB), {
      cookie: admin,
      contentType: "image/png",
    });
    expect(ok.status).toBe(200);
    // And no upload passes 10 MB.
    const huge = await putFile(app, await requestUploadUrl(app, admin), padTo(PNG, 11 * MiB), {
      cookie: admin,
    });
    expect(huge.status).toBe(413);
  });

  it("refuses an expired URL with a 410", async () => {
    const slotUrl = await insertUploadSlot(
      app.db,
      app.config.secretKey,
      "logo",
      adminId,
      new Date(Date.now() - 11 * 60_000),
    );
    const res = await putFile(app, slotUrl, PNG, { cookie: admin, contentType: "image/png" });
    expect(res.status).toBe(410);
    expect(res.body.message).toContain("expired");
  });

  it("refuses forged and tampered URLs with a 403", async () => {
    const url = new URL(await requestUploadUrl(app, admin, "logo"), app.baseUrl);
    const id = url.pathname.split("/").pop()!;
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const otherId = new URL(url);
    otherId.pathname = `/api/objects/upload/${crypto.randomUUID()}`;
    const flipped = new URL(url);
    const sig = url.searchParams.get("signature")!;
    flipped.searchParams.set("signature", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    const otherKey = signUploadUrl(
      crypto.getRandomValues(new Uint8Array(32)),
      id,
      new Date(Date.now() + 60_000),
    ).url;
    // Signed with the right key for an id that was never issued.
    const neverIssued = signUploadUrl(
      app.config.secretKey,
      crypto.randomUUID(),
      new Date(Date.now() + 60_000),
    ).url;
    const noSignature = `/api/objects/upload/${id}`;
    for (
      const bad of [
        later.pathname + later.search,
        otherId.pathname + otherId.search,
        flipped.pathname + flipped.search,
        otherKey,
        neverIssued,
        noSignature,
      ]
    ) {
      const res = await putFile(app, bad, PNG, { cookie: admin, contentType: "image/png" });
      expect([bad, res.status]).toEqual([bad, 403]);
      expect((await setLogo(bad)).status).toBe(400);
    }
    // The genuine URL still works: the attempts used nothing up.
    const res = await putFile(app, url.pathname + url.search, PNG, { cookie: admin });
    expect(res.status).toBe(200);
  });

  it("completes only for the user who asked for the URL", async () => {
    const url = await requestUploadUrl(app, admin, "logo");
    // Another admin (or owner) who came by the URL cannot send a file to it.
    const res = await putFile(app, url, PNG, { cookie: owner, contentType: "image/png" });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("This upload URL was issued to someone else");
    // Nothing was used up: the one who asked still can.
    expect((await putFile(app, url, PNG, { cookie: admin, contentType: "image/png" })).status)
      .toBe(200);
  });

  it("refuses opticians and signed-out callers", async () => {
    const url = await requestUploadUrl(app, admin);
    expect((await putFile(app, url, PNG, { cookie: optician })).status).toBe(403);
    expect((await putFile(app, url, PNG)).status).toBe(401);
  });
});

describe("PUT /api/admin/logo and /api/admin/favicon", () => {
  it("makes an uploaded PNG the logo, served under its content hash", async () => {
    const url = await requestUploadUrl(app, admin, "logo");
    await putFile(app, url, PNG, { cookie: admin, contentType: "image/png" });
    const res = await setLogo(url);
    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    expect((await settingsRow()).logoUrl).toBe(res.body.logoUrl);

    const file = await fetch(app.baseUrl + res.body.logoUrl!);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(file.headers.get("content-security-policy")).toBe(UPLOAD_CSP);

    // Every page shows it: the staff bar, the landing and the sign-in page.
    const dashboard = await call(app, "GET", "/dashboard", { cookie: admin });
    expect(dashboard.text).toContain(`src="${res.body.logoUrl}"`);
    for (const path of ["/", "/staff"]) {
      expect((await call(app, "GET", path)).text).toContain(`src="${res.body.logoUrl}"`);
    }
    const audit = await app.db.selectFrom("auditLog").select(["action", "details"])
      .where("action", "=", "settings.logo").execute();
    expect(audit.at(-1)?.details).toEqual({
      url: res.body.logoUrl,
      changes: [{ field: "logoUrl", from: null, to: res.body.logoUrl }],
    });
  });

  it("accepts the logo types by their bytes and serves SVG sandboxed", async () => {
    for (
      const [bytes, type, ext] of [
        [GIF, "image/gif", "gif"],
        [JPEG, "image/jpeg", "jpg"],
        [svg(), "image/svg+xml", "svg"],
      ] as const
    ) {
      const logoUrl = await setBrandingImage(app, admin, "logo", bytes, "application/octet-stream");
      expect(logoUrl).toMatch(new RegExp(`^/uploads/[0-9a-f]{64}\\.${ext}$`));
      const file = await fetch(app.baseUrl + logoUrl);
      await file.arrayBuffer();
      expect([ext, file.headers.get("content-type")]).toEqual([ext, type]);
    }
    const svgFile = await fetch(app.baseUrl + (await settingsRow()).logoUrl);
    await svgFile.arrayBuffer();
    expect(svgFile.headers.get("content-security-policy")).toContain("sandbox");
    expect(svgFile.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("refuses a logo over 5 MB uploaded as a general image", async () => {
    const url = await requestUploadUrl(app, admin, "image");
    const put = await putFile(app, url, padTo(PNG, 6 * MiB), { cookie: admin });
    expect(put.status).toBe(200);
    const before = await settingsRow();
    const res = await setLogo(url);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The logo must be at most 5 MB");
    expect(await settingsRow()).toEqual(before);
  });

  it("sets an ICO favicon, linked from every page", async () => {
    const faviconUrl = await setBrandingImage(app, admin, "favicon", ICO, "image/x-icon");
    expect(faviconUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.ico$/);
    const file = await fetch(app.baseUrl + faviconUrl);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(ICO);
    expect(file.headers.get("content-type")).toBe("image/x-icon");
    for (const [path, cookie] of [["/staff", undefined], ["/dashboard", admin]] as const) {
      const page = await call(app, "GET", path, { cookie });
      expect(page.text).toContain(`<link rel="icon" href="${faviconUrl}"/>`);
    }
  });

  it("refuses a favicon of a wrong type or over 1 MB", async () => {
    const before = await settingsRow();
    for (const bytes of [JPEG, GIF]) {
      const url = await requestUploadUrl(app, admin, "image");
      expect((await putFile(app, url, bytes, { cookie: admin })).status).toBe(200);
      const res = await setFavicon(url);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("The favicon must be an ICO, PNG or SVG image");
    }
    // Asked for as a favicon, a JPEG is refused at the upload already.
    const early = await putFile(app, await requestUploadUrl(app, admin, "favicon"), JPEG, {
      cookie: admin,
    });
    expect(early.status).toBe(415);
    const big = await requestUploadUrl(app, admin, "image");
    await putFile(app, big, padTo(PNG, 1 * MiB + 1), { cookie: admin });
    const res = await setFavicon(big);
    expect(res.body.message).toBe("The favicon must be at most 1 MB");
    expect(await settingsRow()).toEqual(before);
  });

  it("accepts only URLs this server issued", async () => {
    for (
      const url of [
        "https://evil.example/api/objects/upload/x.png",
        "/static/logo.svg",
        "/uploads/" + "0".repeat(64) + ".png",
        "javascript:alert(1)",
      ]
    ) {
      const res = await setLogo(url);
      expect([url, res.status, res.body.message]).toEqual([
        url,
        400,
        "The logo must be a file uploaded to this store",
      ]);
    }
    // A genuine URL, but on another site.
    const genuine = await requestUploadUrl(app, admin, "logo");
    await putFile(app, genuine, PNG, { cookie: admin });
    expect((await setLogo(`https://evil.example${genuine}`)).status).toBe(400);
    expect((await setLogo(`${app.baseUrl}${genuine}`)).status).toBe(200);
    expect((await call(app, "PUT", "/api/admin/logo", { cookie: admin, body: {} })).status)
      .toBe(400);
  });

  it("refuses opticians", async () => {
    const url = await requestUploadUrl(app, admin, "logo");
    await putFile(app, url, PNG, { cookie: admin });
    expect((await setLogo(url, optician)).status).toBe(403);
    expect((await setFavicon(url, optician)).status).toBe(403);
  });

  it("gives the bytes of a served file by its URL (for the PDF's logo)", async () => {
    const logoUrl = await setBrandingImage(app, admin, "logo", PNG, "image/png");
    const found = await findUploadByUrl(app.db, logoUrl);
    expect(found?.contentType).toBe("image/png");
    expect(found?.bytes).toEqual(PNG);
    for (
      const other of [
        "/static/logo.svg",
        logoUrl.replace(".png", ".svg"),
        `/uploads/${"b".repeat(64)}.png`,
        `https://elsewhere.example${logoUrl}`,
      ]
    ) expect([other, await findUploadByUrl(app.db, other)]).toEqual([other, undefined]);
  });

  it("puts an uploaded logo on every page of the quote PDF", async () => {
    await setBrandingImage(app, admin, "logo", PNG, "image/png");
    const { quoteId } = await insertSavedQuote(app.db, {
      options: [
        { label: "Everyday", sku: "RB-1", price: "150.00" },
        { label: "Sport", sku: "OK-2", price: "210.00" },
      ],
    });
    const res = await fetch(`${app.baseUrl}/api/quotes/${quoteId}/pdf`, {
      headers: { cookie: optician },
    });
    expect(res.status).toBe(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(await pdfImageCount(pdf)).toBe(2);
  });

  it("refuses an image over 4096 × 4096 pixels at upload with a clear 400: the 110 KB PNG of 30,000 × 30,000", async () => {
    const bomb = realPng(30_000, 30_000, { bomb: true });
    expect(bomb.length).toBeLessThan(200_000);
    const message = "The logo is 30000 × 30000 pixels; it can be at most 4096 × 4096 pixels. " +
      "Please make it smaller and try again.";
    const url = await requestUploadUrl(app, admin, "logo");
    const res = await putFile(app, url, bomb, { cookie: admin, contentType: "image/png" });
    expect([res.status, res.body.message]).toEqual([400, message]);
    // Nothing was stored; the URL is still good for a smaller file.
    expect((await putFile(app, url, PNG, { cookie: admin, contentType: "image/png" })).status)
      .toBe(200);
    // An icon entry that says 256 but holds a PNG of 8,000 × 8,000.
    const big = realPng(8000, 8000, { bomb: true });
    const entry = new Uint8Array(ICO.subarray(0, 22));
    new DataView(entry.buffer).setUint32(14, big.length, true);
    const favicon = await putFile(
      app,
      await requestUploadUrl(app, admin, "favicon"),
      concat(entry, big),
      { cookie: admin, contentType: "image/x-icon" },
    );
    expect(favicon.status).toBe(400);
    expect(favicon.body.message).toMatch(/^The favicon is 8000 × 8000 pixels/);
    // An SVG of a small size that embeds the bomb.
    const wrapped = new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><image width="64" ` +
        `height="64" href="data:image/png;base64,${encodeBase64(bomb)}"/></svg>`,
    );
    const svgBomb = await putFile(app, await requestUploadUrl(app, admin, "logo"), wrapped, {
      cookie: admin,
      contentType: "image/svg+xml",
    });
    expect([svgBomb.status, svgBomb.body.message]).toEqual([400, message]);
  });

  it("keeps a print copy of the logo, at most 288 pixels high, for print pages and the PDF", async () => {
    const logoUrl = await setBrandingImage(app, admin, "logo", realPng(3000, 2000), "image/png");
    const row = await settingsRow();
    expect(row.logoUrl).toBe(logoUrl);
    expect(row.logoPrintUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    expect(row.logoPrintUrl).not.toBe(logoUrl);
    const copy = await fetch(app.baseUrl + row.logoPrintUrl);
    const bytes = new Uint8Array(await copy.arrayBuffer());
    expect(copy.headers.get("content-type")).toBe("image/png");
    const view = new DataView(bytes.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([432, 288]);
    // The print pages show the copy; the staff bar keeps the upload.
    const { quoteId } = await insertSavedQuote(app.db, {
      options: [{ label: "Everyday", sku: "RB-1", price: "150.00" }],
    });
    const print = await call(app, "GET", `/print/${quoteId}`, {
      cookie: optician,
      headers: { accept: "text/html" },
    });
    expect(print.status).toBe(200);
    expect(print.text).toContain(`src="${row.logoPrintUrl}"`);
    expect(print.text).toContain(`src="${logoUrl}"`);
    // The PDF draws it, on its one page.
    const pdf = await fetch(`${app.baseUrl}/api/quotes/${quoteId}/pdf`, {
      headers: { cookie: optician },
    });
    expect(pdf.status).toBe(200);
    expect(await pdfImageCount(new Uint8Array(await pdf.arrayBuffer()))).toBe(1);
    // Kept while it is the logo's copy: the sweep of unused uploads leaves it.
    const kept = await app.db.selectFrom("uploadedFiles").select("id")
      .where("contentHash", "=", row.logoPrintUrl!.slice(9, 73)).execute();
    expect(kept).toHaveLength(1);
  });

  it("answers 404 for a file nobody uploaded", async () => {
    const res = await fetch(`${app.baseUrl}/uploads/${"a".repeat(64)}.png`);
    await res.arrayBuffer();
    expect(res.status).toBe(404);
  });
});
