import { describe, it } from "node:test";
import { expect } from "expect";
import { fitLogo, LOGO_BOXES, type LogoPlace } from "./logo_box.ts";

const css = (name: string) =>
  Deno.readTextFileSync(new URL(`../../static/${name}`, import.meta.url));

/** The declarations of the rule whose selector is exactly `selector`. */
function rule(sheet: string, selector: string): string {
  const at = sheet.indexOf(`\n${selector} {`);
  if (at < 0) throw new Error(`no rule for ${selector}`);
  return sheet.slice(at, sheet.indexOf("}", at));
}

/** A fitted size to the hundredth of a px, as layout keeps it. */
const fitted = (image: { width: number; height: number }, place: LogoPlace) => {
  const { width, height } = fitLogo(image, LOGO_BOXES[place]);
  return { width: Math.round(width * 100) / 100, height: Math.round(height * 100) / 100 };
};

describe("logo boxes", () => {
  it("fits a logo in its box at its own aspect ratio", () => {
    // A 360 × 100 wordmark fills the staff bar's box across (it was 32 × 9 in a square).
    expect(fitted({ width: 360, height: 100 }, "staffBar")).toEqual({
      width: 115.2,
      height: 32,
    });
    // Wider than the box's 4:1: the width bounds it.
    expect(fitted({ width: 1000, height: 100 }, "staffBar")).toEqual({
      width: 128,
      height: 12.8,
    });
    // A tall mark: the height bounds it.
    expect(fitted({ width: 100, height: 400 }, "sheet")).toEqual({
      width: 12,
      height: 48,
    });
    // Smaller than the box: enlarged to its height, as the stylesheets do.
    expect(fitted({ width: 40, height: 20 }, "sheet")).toEqual({ width: 96, height: 48 });
  });

  it("the stylesheets draw each place's logo in its box: its height, width auto to its width", () => {
    const places: Array<[string, string, LogoPlace]> = [
      ["app.css", ".brand-logo", "staffBar"],
      ["app.css", ".landing-logo", "landing"],
      ["app.css", ".auth-logo", "signIn"],
      ["css/kiosk.css", ".kiosk-logo", "kiosk"],
      ["css/tablet.css", ".tablet-logo", "kiosk"],
      ["css/online.css", ".online-logo", "online"],
      ["css/print.css", ".print-logo", "sheet"],
      [
        "css/print.css",
        ".print-density-3 .print-logo,\n.print-density-4 .print-logo",
        "sheetDense",
      ],
      ["css/print.css", ".print-internal-head .print-logo", "internalSheet"],
    ];
    for (const [file, selector, place] of places) {
      const declarations = rule(css(file), selector);
      const box = LOGO_BOXES[place];
      expect([selector, declarations]).toEqual([
        selector,
        expect.stringContaining(`\n  height: ${box.height}px;`),
      ]);
      expect([selector, declarations]).toEqual([
        selector,
        expect.stringContaining(`\n  max-width: ${box.width}px;`),
      ]);
      // A fixed width would bring back the square (the dense and internal rules inherit auto).
      expect([selector, /\n\s+width: \d/.test(declarations)]).toEqual([selector, false]);
    }
    for (const [file, selector] of places.filter(([, s]) => !s.includes(" "))) {
      const declarations = rule(css(file), selector);
      expect([selector, declarations]).toEqual([selector, expect.stringContaining("width: auto;")]);
      expect([selector, declarations]).toEqual([
        selector,
        expect.stringContaining("object-fit: contain;"),
      ]);
    }
  });
});
