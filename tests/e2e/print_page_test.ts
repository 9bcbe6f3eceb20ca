// The print page in a browser: the print dialog, the copy toggle, tablet widths, the
// scripts it ships, and its answers for an empty, unknown or signed-out request.
import { describe, it } from "node:test";
import { expect } from "expect";
import { expectCount, TABLET_LANDSCAPE, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { htmlOf, insertQuote, LANDSCAPE, openPrint, PORTRAIT } from "./print_fixture.ts";
import { printCalls, printToPdf, sheetTexts, shoot, THREE_OPTIONS } from "./print_fixture.ts";
import { usePrintApp } from "./print_fixture.ts";

usePrintApp();

describe("print quote: the page around the copies", () => {
  it("the client-print link opens the print dialog by itself, once", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openPrint(`/quote/${quoteId}/client-print`);
    await page.waitForFunction(() =>
      (globalThis as unknown as { printCalls: number }).printCalls > 0
    );
    await page.waitForTimeout(300);
    await expect(printCalls(page)).resolves.toBe(1);
    await expectCount(page.getByRole("button", { name: "Internal Copy" }), 0);
    await expectCount(page.locator(".topbar"), 0);
    await shoot(page, "print-client-print-screen");
    const pdf = await printToPdf(page, "print-client-print");
    expect(pdf.count).toBe(3);
    for (const size of pdf.sizes) expect(size).toEqual(PORTRAIT);
    // Print again after cancelling the dialog.
    await page.getByRole("button", { name: "Print", exact: true }).click();
    await expect(printCalls(page)).resolves.toBe(2);
    expect(problems).toEqual([]);
    await page.context().close();

    for (
      const path of [`/quote/${quoteId}/client-print?noprint=1`, `/print/${quoteId}?noprint=1`]
    ) {
      const quiet = await openPrint(path);
      await quiet.page.waitForTimeout(300);
      await expect(printCalls(quiet.page)).resolves.toBe(0);
      await quiet.page.context().close();
    }
    const external = await openPrint(`/print/${quoteId}?external=true`);
    await external.page.waitForFunction(() =>
      (globalThis as unknown as { printCalls: number }).printCalls > 0
    );
    await external.page.context().close();
  });

  it("the toggle switches copies without a request and keeps ?copy in the URL", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems, requests } = await openPrint(`/print/${quoteId}`);
    const clientButton = page.getByRole("button", { name: "Client Copy" });
    const internalButton = page.getByRole("button", { name: "Internal Copy" });
    await expect(clientButton.getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(internalButton.getAttribute("aria-pressed")).resolves.toBe("false");
    const before = requests.length;

    await internalButton.click();
    await expect(internalButton.getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(page.locator("#print-copy-internal").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-client").isHidden()).resolves.toBe(true);
    expect(new URL(page.url()).searchParams.get("copy")).toBe("internal");
    // What prints follows the toggle.
    const internal = await printToPdf(page, "print-toggled-internal");
    expect(internal.sizes).toEqual([LANDSCAPE, LANDSCAPE]);

    await clientButton.click();
    await expect(page.locator("#print-copy-client").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-internal").isHidden()).resolves.toBe(true);
    expect(new URL(page.url()).searchParams.has("copy")).toBe(false);
    // Printing to PDF fetches the favicon again; that is Chromium, not the page.
    expect(requests.slice(before).filter((url) => !url.endsWith("/favicon.svg"))).toEqual([]);

    // The server honours ?copy=internal on load.
    await internalButton.click();
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(page.locator("#print-copy-internal").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Internal Copy" }).getAttribute("aria-pressed"))
      .resolves.toBe("true");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  const tablets = [["portrait", TABLET_PORTRAIT], ["landscape", TABLET_LANDSCAPE]] as const;
  for (const [name, viewport] of tablets) {
    it(`the client copy fits a ${name} tablet without sideways scrolling`, async () => {
      const { quoteId } = await insertQuote();
      const { page, problems } = await openPrint(
        `/quote/${quoteId}/client-print?noprint=1`,
        viewport,
      );
      const overflow = await page.evaluate(() => {
        let widest = document.documentElement.scrollWidth;
        for (const el of Array.from(document.body.querySelectorAll("*"))) {
          widest = Math.max(widest, Math.ceil(el.getBoundingClientRect().right));
        }
        return widest - globalThis.innerWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, `print-client-tablet-${name}`);
      // The paper is the same whatever the screen.
      const pdf = await printToPdf(page, `print-client-tablet-${name}`);
      expect(pdf.sizes).toEqual([PORTRAIT, PORTRAIT, PORTRAIT]);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it("the Print button calls window.print, and nothing prints by itself", async () => {
    const { quoteId } = await insertQuote();
    const { page } = await openPrint(`/print/${quoteId}`);
    await page.waitForTimeout(200);
    await expect(printCalls(page)).resolves.toBe(0);
    await page.getByRole("button", { name: "Print", exact: true }).click();
    await expect(printCalls(page)).resolves.toBe(1);
    await page.context().close();
  });

  it("ships the entry script, the staff bar's search and the PrintControls island only", async () => {
    const { quoteId } = await insertQuote();
    const { page, requests } = await openPrint(`/print/${quoteId}`);
    await expect(
      page.locator("[data-island]").evaluateAll((els) =>
        els.map((el) => el.getAttribute("data-island"))
      ),
    ).resolves.toEqual(["SearchBox", "PrintControls"]);
    await expectCount(page.locator("script[type=module]"), 1);
    await expect(page.locator("script[type=module]").getAttribute("src")).resolves.toMatch(
      /^\/static\/build\/_entry-[0-9a-f]{12}\.js$/,
    );
    await expect(
      page.locator("link[rel=modulepreload]").evaluateAll((els) =>
        els.map((el) => el.getAttribute("href"))
      ),
    ).resolves.toEqual([
      expect.stringMatching(/\/SearchBox-[A-Z0-9]+\.js$/),
      expect.stringMatching(/\/PrintControls-[A-Z0-9]+\.js$/),
    ]);
    const islandChunks = requests.map((url) => new URL(url).pathname)
      .filter((p) => /\/[A-Z][A-Za-z0-9]*-[A-Z0-9]+\.js$/.test(p)).sort();
    expect(islandChunks.length).toBe(2);
    expect(islandChunks[0]).toMatch(/\/PrintControls-[A-Z0-9]+\.js$/);
    expect(islandChunks[1]).toMatch(/\/SearchBox-[A-Z0-9]+\.js$/);
    // No inline script: the island's props ride in a JSON script, never executed.
    const inline = await page.locator("script:not([src]):not([type='application/json'])").count();
    expect(inline).toBe(0);
    await page.context().close();
  });

  it("with no chosen option the internal copy says so", async () => {
    const { quoteId } = await insertQuote(THREE_OPTIONS.map((o) => ({ ...o, isChosen: false })));
    const { page } = await openPrint(`/print/${quoteId}?copy=internal`);
    await expect(
      page.locator("#print-copy-internal").getByText("No options selected for this quote.")
        .isVisible(),
    ).resolves.toBe(true);
    await shoot(page, "print-internal-none-chosen");
    const pdf = await printToPdf(page, "print-internal-none-chosen");
    expect(pdf.sizes).toEqual([LANDSCAPE]);
    // The client copy still has all three options.
    await page.getByRole("button", { name: "Client Copy" }).click();
    await expect(sheetTexts(page)).resolves.toHaveLength(3);
    await page.context().close();
  });

  it("with no options at all the client copy says so", async () => {
    const { quoteId } = await insertQuote([]);
    const { page } = await openPrint(`/print/${quoteId}`);
    await expect(
      page.locator("#print-copy-client").getByText("No options available for this quote.")
        .isVisible(),
    ).resolves.toBe(true);
    await shoot(page, "print-client-no-options");
    const pdf = await printToPdf(page, "print-client-no-options");
    expect(pdf.sizes).toEqual([PORTRAIT]);
    const res = await htmlOf(`/quote/${quoteId}/client-print?noprint=1`);
    expect(res.text).toContain("No options available for this quote.");
    await page.context().close();
  });

  it("an unknown, malformed or missing id gives No quote data to print with 404", async () => {
    const unknown = crypto.randomUUID();
    for (
      const path of [
        `/print/${unknown}`,
        "/print/not-a-uuid",
        "/print",
        "/print/",
        `/quote/${unknown}/client-print`,
        "/quote/not-a-uuid/client-print",
        `/print/${unknown}?external=true`,
      ]
    ) {
      const res = await htmlOf(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).toContain("No quote data to print");
      // Nothing to switch or print: the staff bar's search is the only island.
      expect([...res.text.matchAll(/data-island="(\w+)"/g)].map((m) => m[1])).toEqual([
        "SearchBox",
      ]);
    }
    const { page, status } = await openPrint("/print/not-a-uuid");
    expect(status).toBe(404);
    await expect(
      page.getByRole("heading", { name: "No quote data to print", level: 1 }).isVisible(),
    ).resolves.toBe(true);
    await shoot(page, "print-not-found");
    await page.context().close();
  });

  it("the signed-out visitor is sent to sign in", async () => {
    const { quoteId } = await insertQuote();
    for (const path of [`/print/${quoteId}`, `/quote/${quoteId}/client-print`, "/print"]) {
      const res = await htmlOf(path, false);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/staff?returnTo=${encodeURIComponent(path)}`);
    }
  });
});
