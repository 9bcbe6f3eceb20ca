import { describe, it } from "node:test";
import { expect } from "expect";
import { acceptList, imageProblem, sniffImage } from "./image_rules.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(
    parts.flatMap((p) => typeof p === "string" ? [...new TextEncoder().encode(p)] : p),
  );

describe("sniffImage", () => {
  it("knows the six types by their first bytes", () => {
    expect(sniffImage(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("png");
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniffImage(bytes("GIF89a"))).toBe("gif");
    expect(sniffImage(bytes("GIF87a"))).toBe("gif");
    expect(sniffImage(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
    expect(sniffImage(bytes([0, 0, 1, 0, 1, 0]))).toBe("ico");
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe("svg");
  });

  it("reads an SVG after a BOM, XML declaration, comments and doctype", () => {
    const svg = '\uFEFF  <?xml version="1.0"?>\n<!-- made by hand -->\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg viewBox="0 0 1 1"></svg>';
    expect(sniffImage(bytes(svg))).toBe("svg");
  });

  it("does not take HTML, text or lookalikes for images", () => {
    for (
      const sample of [
        bytes("<!doctype html><html><svg></svg></html>"),
        bytes("<html><body><svg></svg>"),
        bytes("<svgx>"),
        bytes("plain text"),
        bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "),
        bytes([0, 0, 1, 0, 0, 0]), // an icon directory with no image
        bytes([0, 0, 2, 0, 1, 0]), // a cursor
        bytes([0x89, 0x50, 0x4e, 0x47]), // a cut PNG signature
        new Uint8Array(),
      ]
    ) expect(sniffImage(sample)).toBeUndefined();
  });
});

describe("imageProblem", () => {
  const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = bytes([0xff, 0xd8, 0xff]);

  it("applies the spec's logo and favicon rules", () => {
    expect(imageProblem("logo", png, 5 * 1024 * 1024)).toBeUndefined();
    expect(imageProblem("logo", png, 5 * 1024 * 1024 + 1)).toBe("The logo must be at most 5 MB");
    expect(imageProblem("logo", bytes([0, 0, 1, 0, 1, 0]), 10)).toBe(
      "The logo must be a PNG, JPEG, GIF, WebP or SVG image",
    );
    expect(imageProblem("favicon", png, 1024 * 1024)).toBeUndefined();
    expect(imageProblem("favicon", png, 1024 * 1024 + 1)).toBe("The favicon must be at most 1 MB");
    expect(imageProblem("favicon", jpeg, 100)).toBe("The favicon must be an ICO, PNG or SVG image");
    expect(imageProblem("image", png, 0)).toBe("The file is empty");
  });

  it("gives the file picker the same types", () => {
    expect(acceptList("favicon")).toBe("image/x-icon,image/png,image/svg+xml");
  });
});
