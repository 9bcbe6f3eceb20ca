import { describe, it } from "node:test";
import { expect } from "expect";
import { encodeBase64 } from "@oslojs/encoding";
import { imageSize } from "./image_size.ts";
import { imageProblem, imageSizeProblem } from "./image_rules.ts";

const bytes = (...parts: (number[] | string | Uint8Array)[]) =>
  new Uint8Array(
    parts.flatMap((p) => typeof p === "string" ? [...new TextEncoder().encode(p)] : Array.from(p)),
  );
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const le32 = (n: number) => [...le16(n & 0xffff), ...le16(n >>> 16)];

/** A PNG's signature and IHDR: all a decoder needs to allocate. */
const png = (w: number, h: number) =>
  bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], be32(13), "IHDR", be32(w), be32(h), [
    8,
    6,
    0,
    0,
    0,
  ], be32(0));
const svg = (attrs: string, inside = "") =>
  bytes(`<svg xmlns="http://www.w3.org/2000/svg" ${attrs}>${inside}</svg>`);

describe("imageSize", () => {
  it("reads PNG, JPEG, GIF, WebP and ICO headers", () => {
    expect(imageSize("png", png(30_000, 30_000))).toEqual({ width: 30_000, height: 30_000 });
    const jpeg = bytes([0xff, 0xd8], [0xff, 0xe1, 0x00, 0x04, 0, 0], [
      0xff,
      0xc2,
      0x00,
      0x0b,
      8,
      ...[0x13, 0x88], // height 5000
      ...[0x0f, 0xa0], // width 4000
      1,
      1,
      0x11,
      0,
    ], [0xff, 0xda]);
    expect(imageSize("jpeg", jpeg)).toEqual({ width: 4000, height: 5000 });
    // A 1×1 screen with a frame far larger than it: the frame counts.
    const gif = bytes(
      "GIF89a",
      le16(1),
      le16(1),
      [0, 0, 0],
      [0x2c],
      le16(0),
      le16(0),
      le16(9000),
      le16(2),
      [
        0,
      ],
      [2, 1, 0, 0],
      [0x3b],
    );
    expect(imageSize("gif", gif)).toEqual({ width: 9000, height: 2 });
    const riff = (chunk: string, data: number[]) =>
      bytes("RIFF", le32(4 + 8 + data.length), "WEBP", chunk, le32(data.length), data);
    expect(imageSize("webp", riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(640), ...le16(480)])))
      .toEqual({ width: 640, height: 480 });
    const vp8l = ((5000 - 1) & 0x3fff) | (((300 - 1) & 0x3fff) << 14);
    expect(imageSize("webp", riff("VP8L", [0x2f, ...le32(vp8l), 0, 0, 0, 0, 0])))
      .toEqual({ width: 5000, height: 300 });
    expect(imageSize("webp", riff("VP8X", [0, 0, 0, 0, ...le24(19_999), ...le24(99)])))
      .toEqual({ width: 20_000, height: 100 });
    // An icon entry says 256 (0) but holds a PNG of 8000.
    const inner = png(8000, 8000);
    const ico = bytes(
      [0, 0, 1, 0],
      le16(1),
      [0, 0, 0, 0],
      le16(1),
      le16(32),
      le32(inner.length),
      le32(22),
      inner,
    );
    expect(imageSize("ico", ico)).toEqual({ width: 8000, height: 8000 });
  });

  it("sizes an SVG as it renders: width and height, else its viewBox, and embedded images", () => {
    expect(imageSize("svg", svg('width="64" height="32"'))).toEqual({ width: 64, height: 32 });
    expect(imageSize("svg", svg('width="10in" height="50mm"'))).toEqual({
      width: 960,
      height: 189,
    });
    expect(imageSize("svg", svg('width="100%" viewBox="0 0 30000 15000"')))
      .toEqual({ width: 30_000, height: 15_000 });
    expect(imageSize("svg", svg('width="300" viewBox="0,0,600,200"')))
      .toEqual({ width: 300, height: 100 });
    expect(imageSize("svg", svg(""))).toBeUndefined();
    // A small SVG wrapping a huge PNG: the PNG decides.
    const bomb = svg(
      'width="64" height="64"',
      `<image href="data:image/png;base64,${encodeBase64(png(30_000, 30_000))}"/>`,
    );
    expect(imageSize("svg", bomb)).toEqual({ width: 30_000, height: 30_000 });
  });
});

describe("imageSizeProblem", () => {
  it(`refuses beyond 4096 × 4096 with a clear message`, () => {
    expect(imageSizeProblem("logo", png(30_000, 30_000), 900_000)).toBe(
      "The logo is 30000 × 30000 pixels; it can be at most 4096 × 4096 pixels. " +
        "Please make it smaller and try again.",
    );
    expect(imageProblem("logo", png(4096, 4096), 100)).toBeUndefined();
    expect(imageProblem("favicon", png(4097, 16), 100)).toMatch(/^The favicon is 4097 × 16 pixels/);
  });

  it("refuses a whole raster file whose size cannot be read, but leaves a file's start to the server", () => {
    const noFrame = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xd9]);
    expect(imageSizeProblem("logo", noFrame, noFrame.length)).toMatch(/could not be read/);
    expect(imageSizeProblem("logo", noFrame, 1_000_000)).toBeUndefined();
  });
});
