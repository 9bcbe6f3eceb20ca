import { describe, it } from "node:test";
import { expect } from "expect";
import { imageDecodes, pngProblem } from "./image_check.ts";
import {
  damagedSignatures,
  PNG,
  pngHeader,
  pngOf,
  realPng,
  signaturePng,
} from "../../tests/helpers/images.ts";

describe("pngProblem", () => {
  it("takes what react-pdf draws: 8 and 16 bits a sample, interlaced or not, any colour type", async () => {
    const good = {
      "a pad's RGBA": signaturePng().png,
      "16-bit": signaturePng({ depth: 16 }).png,
      "interlaced": signaturePng({ interlaced: true }).png,
      "16-bit interlaced": signaturePng({ depth: 16, interlaced: true }).png,
      "1×1": PNG,
      "RGB": realPng(64, 32),
      "1-bit grey": realPng(64, 32, { bomb: true }),
    };
    for (const [name, png] of Object.entries(good)) {
      expect([name, pngProblem(png)]).toEqual([name, undefined]);
      expect(await imageDecodes(png, "png")).toBe(true);
    }
  });

  it("refuses a PNG damaged after a sound header, saying why, and never hangs", async () => {
    for (const [name, png] of Object.entries(damagedSignatures())) {
      const started = performance.now();
      expect([name, pngProblem(png)]).toEqual([name, expect.any(String)]);
      expect(await imageDecodes(png, "png")).toBe(false);
      // pdf-lib's decoder never returned from the stream cut short.
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it("refuses a chunk whose checksum is wrong, and a palette image without its palette", () => {
    const damaged = signaturePng().png.slice();
    damaged[60] ^= 1;
    expect(pngProblem(damaged)).toMatch(/checksum/);
    expect(pngProblem(pngOf(pngHeader(2, 2, 8, 3), new Uint8Array(6)))).toBe("no palette");
  });

  it("refuses an image over the side it is given before inflating anything", () => {
    // Its header says 30,000 × 30,000: 3.6 GB of RGBA; its data would tell only once inflated.
    expect(pngProblem(pngOf(pngHeader(30_000, 30_000, 8, 6), new Uint8Array(1000)))).toBe(
      "too large",
    );
    const { png } = signaturePng({ width: 120, height: 40 });
    expect(pngProblem(png, 100)).toBe("too large");
  });

  it("refuses more pixel data than the header declares", () => {
    const { pixels } = signaturePng();
    const longer = new Uint8Array(pixels.length + 100);
    longer.set(pixels);
    expect(pngProblem(pngOf(pngHeader(120, 40, 8, 6), longer))).toMatch(/damaged/);
    // The same rows, deflated whole, pass.
    expect(pngProblem(pngOf(pngHeader(120, 40, 8, 6), pixels))).toBeUndefined();
  });
});
