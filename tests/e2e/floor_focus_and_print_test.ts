// The store floor in a real browser: focus rings against what is behind them, the client
// dialog's quote rows, the print pages' way back, the forgotten-password page's script,
// the CSP (zod validates without probing `new Function`), and the internal copy staff
// order from.
import { describe, it } from "node:test";
import { expect } from "expect";
import { kioskCookieFor } from "../helpers/test_app.ts";
import {
  FLOOR_SIZES,
  openSignedIn,
  PHONE,
  sizeName,
  TABLET_LANDSCAPE,
  WIDE,
} from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { fill, LIMITS, maximalOption, maximalOptions } from "../helpers/quote_fixture.ts";
import type { OptionInput } from "../../src/schemas/quote.ts";
import { CONTINUED_IN_SYSTEM } from "../../src/print/print_model.ts";
import { formatMoney } from "../../src/money/amounts.ts";
import { app, browser, clientId, focusRingContrast, keyboardFocus } from "./floor_fixture.ts";
import { open, openForSizes, owner, ownerCookie, printedPages } from "./floor_fixture.ts";
import { printPage, quoteId, quoteOf, shoot, useFloorApp } from "./floor_fixture.ts";

useFloorApp();

describe("focus rings, the client dialog, the way back from print and the CSP", () => {
  it("focus rings of inputs, checkboxes, radios and the orange banner reach 3:1 at every size", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page } = await sizes.at("/intake", viewport);
        const rings = [];
        for (
          const selector of [
            "input#firstName, input[name=firstName]",
            ".intake-form input[type=checkbox]",
            ".intake-form input[type=radio]",
            ".email-banner-dismiss",
            ".email-banner-action",
          ]
        ) {
          if (await page.locator(selector).count() === 0) throw new Error(`no ${selector}`);
          await keyboardFocus(page, selector);
          rings.push(await focusRingContrast(page));
        }
        for (const ring of rings) {
          expect([sizeName(viewport), ring.what, ring.ratio >= 3]).toEqual([
            sizeName(viewport),
            ring.what,
            true,
          ]);
        }
        console.log(
          `${sizeName(viewport)} focus rings: ${
            rings.map((r) => `${r.what} ${r.ratio}:1`).join(", ")
          }`,
        );
      }
    } finally {
      await sizes.close();
    }
  });

  it("the client dialog keeps each quote row whole, View in reach, at every size", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page, problems } = await sizes.at(`/clients?id=${clientId}`, viewport);
        const dialog = page.getByRole("dialog");
        await dialog.locator(".client-quote-row").nth(1).waitFor();
        const rows = await dialog.locator(".client-quote-row").evaluateAll((els) =>
          els.map((row) => {
            const box = row.getBoundingClientRect();
            const parts = [...row.children].map((c) => c.getBoundingClientRect());
            const view = row.querySelector("a")!.getBoundingClientRect();
            return {
              overflow: row.scrollWidth - row.clientWidth,
              partsInside: parts.every((p) => p.left >= box.left - 1 && p.right <= box.right + 1),
              viewInViewport: view.left >= 0 && view.right <= innerWidth,
              viewWidth: Math.round(view.width),
            };
          })
        );
        expect(rows.length).toBe(2);
        for (const row of rows) {
          expect([sizeName(viewport), row]).toEqual([sizeName(viewport), {
            overflow: 0,
            partsInside: true,
            viewInViewport: true,
            viewWidth: row.viewWidth,
          }]);
          expect(row.viewWidth).toBeGreaterThanOrEqual(44);
        }
        if (viewport === PHONE) {
          expect(await seriousA11yViolations(page)).toEqual([]);
          await shoot(page, `client-dialog-${sizeName(viewport)}`);
        }
        expect(problems).toEqual([]);
      }
    } finally {
      await sizes.close();
    }
  });

  it("print pages lead staff back to the quote; a kiosk gets its own way back instead", async () => {
    for (const path of [`/print/${quoteId}`, `/print/${quoteId}?external=true&noprint=1`]) {
      const { page, close } = await open(path, TABLET_LANDSCAPE);
      try {
        const back = page.getByRole("link", { name: "Back to Quote" });
        expect(await back.getAttribute("href")).toBe(`/quote/${quoteId}`);
        expect(await back.isVisible()).toBe(true);
        // It is for the screen: the printout does not carry it.
        await page.emulateMedia({ media: "print" });
        expect(await back.isVisible()).toBe(false);
        await page.emulateMedia({ media: "screen" });
        await back.click();
        await page.waitForURL(`${app.baseUrl}/quote/${quoteId}`);
      } finally {
        await close();
      }
    }
    const context = await browser.newContext({ viewport: TABLET_LANDSCAPE, baseURL: app.baseUrl });
    try {
      const [name, value] = (await kioskCookieFor(app.db, {
        kind: "QUOTE",
        quoteId,
        handedOverBy: owner.id,
      })).split("=");
      await context.addCookies([{ name, value, url: app.baseUrl, sameSite: "Strict" }]);
      const page = await context.newPage();
      await page.goto(`/quote/${quoteId}/client-print?noprint=1`);
      await page.getByRole("link", { name: "Back to your options" }).waitFor();
      expect(await page.getByRole("link", { name: "Back to Quote" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("the forgotten-password page works without JavaScript too", async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: app.baseUrl,
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      await page.goto("/forgot-password");
      await page.getByRole("button", { name: "Send Reset Instructions" }).click();
      await page.locator(".field-error", { hasText: "Please enter your email address" }).waitFor();
      await page.getByLabel("Email").fill("nobody@store.test");
      await page.getByRole("button", { name: "Send Reset Instructions" }).click();
      await page.getByRole("heading", { name: "Check Your Email" }).waitFor();
      // (axe needs scripts: the page's a11y is checked with them in password_recovery_test.ts.)
    } finally {
      await context.close();
    }
  });

  it("the builder validates and saves under the CSP with no violation (zod is jitless)", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, ownerCookie, WIDE);
    try {
      page.context().setDefaultTimeout(60_000);
      // Listening from the first script on: zod probes when its schemas are built.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (globalThis as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener("securitypolicyviolation", (e) => {
          seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
        });
      });
      await page.goto(`/quote/${quoteId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      // Saving runs the shared zod schemas in the browser (the builder's save check).
      await page.getByLabel("Option Label").first().fill("Everyday, checked");
      await page.getByRole("button", { name: "Save Quote" }).click();
      await page.getByText("Quote saved successfully!").first().waitFor();
      const violations = await page.evaluate(() =>
        (globalThis as unknown as { cspViolations: string[] }).cspViolations
      );
      expect(violations).toEqual([]);
      expect(problems.filter((p) => /Content Security Policy|unsafe-eval/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("the internal copy staff order from", () => {
  it("options at the schema's limits print every price line, one page each, free text cut with the mark", async () => {
    const { id } = await quoteOf(maximalOptions(3));
    for (const copy of ["internal", "client"]) {
      const { page, problems, close } = await printPage(`/print/${id}?copy=${copy}`);
      try {
        const pages = await printedPages(page, `limits-${copy}`);
        expect(pages.length).toBe(3);
        pages.forEach((text, i) => {
          const missing = Array.from({ length: LIMITS.items }, (_, n) => `Item#${n + 1} `)
            .filter((name) => !text.includes(name));
          expect([copy, i + 1, missing]).toEqual([copy, i + 1, []]);
          // Each line's amount: 999 × the unit price, 50 times, and the total.
          const amounts = text.match(/\$[\d,]+\.\d\d/g) ?? [];
          expect(amounts.length).toBeGreaterThanOrEqual(LIMITS.items + 2);
          expect(text).toContain(CONTINUED_IN_SYSTEM);
          expect(text).not.toMatch(/more items? continued/);
        });
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it("an option of 13 lines with long notes prints every name whole, in type as large as fits", async () => {
    const base = maximalOption(1);
    const thirteen: OptionInput = {
      ...base,
      label: "Everyday",
      notes: fill("The client asked about anti-fog coatings for cycling. ", LIMITS.notes),
      shipping: "0",
      adjustmentAmount: "0",
      adjustmentReason: "",
      items: base.items.slice(0, 13).map((item, i) => ({
        ...item,
        name: `Item#${i + 1} ${fill("progressive lens with blue-light filter ", 80)}`,
        unitPrice: "100.00",
        qty: 1,
      })),
    };
    const { id } = await quoteOf([thirteen]);
    const { page, close } = await printPage(`/print/${id}?copy=internal`, TABLET_LANDSCAPE);
    try {
      const sheet = page.locator(".print-copy-internal .print-sheet");
      const pages = await printedPages(page, "thirteen-internal");
      expect(pages.length).toBe(1);
      for (let n = 1; n <= 13; n++) expect(pages[0]).toContain(`Item#${n} `);
      expect(pages[0]).not.toContain("Shortened descriptions");
      expect(pages[0]).toContain(formatMoney(130_000));
      // Larger type than the smallest, and the page used: the content fills most of it.
      const fit = await sheet.evaluate((el) => ({
        density: [...el.classList].find((c) => c.startsWith("print-density-")),
      }));
      console.log(`13 lines, internal copy: ${fit.density}`);
    } finally {
      await close();
    }
  });
});
