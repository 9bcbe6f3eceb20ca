import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { logoBytesFor, sniffImageFormat } from "./logo_source.ts";
import { pdfImageFor } from "./logo_image.ts";

// An 8×8 PNG in the store's teal.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mOQ94vHihiGlgQA3eUzAUc2QwUAAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

// A JPEG's start, frame header (1×1, 3 components) and end: enough for the checks.
const JPEG = Uint8Array.of(
  ...[0xff, 0xd8],
  ...[0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03],
  ...[0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00],
  ...[0xff, 0xd9],
);

const SVG = `<?xml version="1.0"?>
<!-- a logo -->
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 50">
  <rect width="200" height="50" fill="#1f4e5f"/>
  <image href="https://example.com/tracker.png" width="10" height="10"/>
</svg>`;

describe("logoBytesFor", () => {
  let root: string;
  let staticDir: string;
  before(async () => {
    root = await Deno.makeTempDir();
    staticDir = join(root, "static");
    await Deno.mkdir(join(staticDir, "img"), { recursive: true });
    await Deno.writeFile(join(staticDir, "img", "logo.png"), PNG);
    await Deno.writeFile(join(staticDir, "logo.jpg"), JPEG);
    await Deno.writeTextFile(join(staticDir, "logo.svg"), SVG);
    await Deno.writeTextFile(join(staticDir, "svg-named.png"), SVG);
    await Deno.writeTextFile(join(staticDir, "notes.txt"), "not an image");
    await Deno.writeFile(join(root, "secret.png"), PNG);
  });
  after(() => Deno.remove(root, { recursive: true }));

  it("reads PNG, JPEG and SVG files under /static/, by their content", async () => {
    expect((await logoBytesFor("/static/img/logo.png", undefined, staticDir))?.format).toBe("png");
    expect((await logoBytesFor("/static/img/logo.png?v=2", undefined, staticDir))?.format).toBe(
      "png",
    );
    expect((await logoBytesFor("/static/logo.jpg", undefined, staticDir))?.format).toBe("jpg");
    expect((await logoBytesFor("/static/logo.svg", undefined, staticDir))?.format).toBe("svg");
    // The name says PNG, the bytes say SVG: the bytes win.
    expect((await logoBytesFor("/static/svg-named.png", undefined, staticDir))?.format).toBe("svg");
    expect((await logoBytesFor("/static/img/logo.png", undefined, staticDir))?.bytes).toEqual(PNG);
  });

  it("gives nothing for other files, paths outside static/ and other hosts", async () => {
    for (
      const url of [
        "/static/notes.txt",
        "/static/missing.png",
        "/static/img",
        "/static/../secret.png",
        "/static/%2e%2e/secret.png",
        "/static/..%2fsecret.png",
        "/static/img/..%2f..%2fsecret.png",
        "/objects/uploads/3f2a",
        "https://example.com/static/logo.png",
        "//example.com/static/logo.png",
        "",
      ]
    ) expect(await logoBytesFor(url, undefined, staticDir)).toBeUndefined();
  });

  it("finds the built-in logo in the app's own static folder", async () => {
    expect((await logoBytesFor("/static/logo.svg"))?.format).toBe("svg");
  });
});

describe("sniffImageFormat", () => {
  it("knows PNG, JPEG and SVG by their first bytes", () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(sniffImageFormat(PNG)).toBe("png");
    expect(sniffImageFormat(JPEG)).toBe("jpg");
    expect(sniffImageFormat(text("\uFEFF  <svg width='1'/>"))).toBe("svg");
    expect(sniffImageFormat(text("<!DOCTYPE svg><svg/>"))).toBe("svg");
    expect(sniffImageFormat(text("<html><svg/></html>"))).toBeUndefined();
    expect(sniffImageFormat(text("GIF89a"))).toBeUndefined();
  });
});

describe("pdfImageFor", () => {
  it("passes PNG and JPEG through", async () => {
    expect((await pdfImageFor({ bytes: PNG, format: "png" }))?.format).toBe("png");
    expect((await pdfImageFor({ bytes: JPEG, format: "jpg" }))?.format).toBe("jpg");
  });

  it("rasterizes an SVG to a PNG of print resolution", async () => {
    const image = await pdfImageFor({ bytes: new TextEncoder().encode(SVG), format: "svg" });
    expect(image?.format).toBe("png");
    const doc = await PDFDocument.create();
    const png = await doc.embedPng(image!.data);
    // 200×50 drawn 288 pixels tall keeps its 4:1 shape.
    expect(png.height).toBe(288);
    expect(png.width).toBe(1152);
  });

  it("gives nothing for damaged images, so the PDF prints the store name", async () => {
    const damaged = Uint8Array.of(...PNG.slice(0, 40), 1, 2);
    expect(await pdfImageFor({ bytes: damaged, format: "png" })).toBeUndefined();
    const broken = new TextEncoder().encode("<svg><rect");
    expect(await pdfImageFor({ bytes: broken, format: "svg" })).toBeUndefined();
  });
});
