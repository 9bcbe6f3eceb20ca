// The printed quote in a browser: the internal and client copies, their pages and what
// each shows or keeps out.
import { describe, it } from "node:test";
import { expect } from "expect";
import { EXTRA, FOOTER_MESSAGE, htmlOf, insertQuote, INTERNAL_MARK } from "./print_fixture.ts";
import { INTERNAL_NOTE, LANDSCAPE, openPrint, PD_DISTANCE, PORTRAIT } from "./print_fixture.ts";
import { printToPdf, sheetTexts, shoot, usePrintApp } from "./print_fixture.ts";

usePrintApp();

describe("print quote: the copies", () => {
  it("the internal copy prints one letter-landscape page per chosen option", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openPrint(`/print/${quoteId}?copy=internal`);
    await expect(page.locator("#print-copy-internal").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-client").isHidden()).resolves.toBe(true);
    await shoot(page, "print-internal-screen");
    // On paper: no staff bar, no controls, only the sheets.
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".print-controls").isHidden()).resolves.toBe(true);
    await expect(page.locator(".topbar").isHidden()).resolves.toBe(true);
    await page.emulateMedia({ media: null });
    const pdf = await printToPdf(page, "print-internal");
    expect(pdf.count).toBe(2);
    for (const size of pdf.sizes) expect(size).toEqual(LANDSCAPE);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the client copy prints one letter-portrait page per option", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openPrint(`/print/${quoteId}`);
    await expect(page.locator("#print-copy-client").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-internal").isHidden()).resolves.toBe(true);
    await shoot(page, "print-client-screen");
    const pdf = await printToPdf(page, "print-client");
    expect(pdf.count).toBe(3);
    for (const size of pdf.sizes) expect(size).toEqual(PORTRAIT);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the internal copy shows every element of the spec", async () => {
    const { quoteId, quoteNumber } = await insertQuote();
    const { page } = await openPrint(`/print/${quoteId}?copy=internal`);
    const [first, second] = await sheetTexts(page);
    for (
      const text of [
        "INTERNAL QUOTE COPY",
        `Quote # ${quoteNumber}`,
        "Page 1 of 2",
        "OPTION RB5154-2000",
        "Name Jane Doe",
        "Email jane.doe@example.com",
        "Phone 555-321-9876",
        "Date of Birth April 12, 1985",
        "Address 42 Elm Street Apt 3 Austin, TX 78704",
        "SMS Consent Yes",
        "Email Consent No",
        "How Heard Instagram",
        "PD Distance 63.5 mm",
        "PD Near 60 mm",
        "SEG/OC 22/24",
        `${EXTRA[0]} ${EXTRA[1]}`,
        "Optician Dr. Ana Ruiz",
        "Status Accepted",
        INTERNAL_NOTE,
        "Lighter frame preferred; anti-fog for cycling.",
        "FRAME Ray-Ban $189.00",
        "LENS PACKAGE Premium Progressive $389.00",
        "ADD-ON Transitions $120.00",
        "Subtotal $698.00",
        "Spring sale -$25.00",
        "Total $673.00",
      ]
    ) expect(first).toContain(text);
    expect(first).toMatch(/Created [A-Z][a-z]+ \d{1,2}, \d{4}/);
    expect(first).not.toContain("Shipping");
    // The third option: no SKU, no label, no SEG/OC, no notes.
    for (
      const text of ["Page 2 of 2", "OPTION Option 3", "SEG/OC N/A", "OPTION NOTES N/A"]
    ) expect(second).toContain(text);
    expect(second).toContain("Total $99.00");
    const totalWeight = await page.locator("#print-copy-internal .print-total td").first()
      .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(totalWeight)).toBeGreaterThanOrEqual(700);
    await page.context().close();
  });

  it("the client copy has header, client, details, notes, prices and the store footer", async () => {
    const { quoteId, quoteNumber } = await insertQuote();
    const { page } = await openPrint(`/print/${quoteId}`);
    const sheets = await sheetTexts(page);
    expect(sheets.length).toBe(3);
    const [first, second, third] = sheets;
    for (
      const text of [
        "Northside Eyewear",
        "EYEWEAR QUOTE",
        "RB5154-2000",
        `Quote # ${quoteNumber}`,
        "Page 1 of 3",
        "Name Jane Doe",
        "Email jane.doe@example.com",
        "Phone 555-321-9876",
        "Address 42 Elm Street Apt 3 Austin, TX 78704",
        "Option RB5154-2000",
        "Optician Dr. Ana Ruiz",
        "Status Accepted",
        "Lighter frame preferred; anti-fog for cycling.",
        "Total $673.00",
        "1 Main St, Austin, TX 78701",
        "(555) 010-0100",
        "hello@northside.test",
        "northside.test",
        FOOTER_MESSAGE,
      ]
    ) expect(first).toContain(text);
    await expect(page.locator("#print-copy-client .print-logo").first().getAttribute("src"))
      .resolves.toBe("/static/logo.svg");
    // Shipping only when above 0; qty only when above 1; the adjustment as Promo by default.
    for (
      const text of [
        "Page 2 of 3",
        "Sport Pair",
        "OTHER Sports strap × 2 $25.00",
        "Shipping $15.00",
        "Promo -$10.00",
        "Total $395.00",
      ]
    ) expect(second).toContain(text);
    expect(third).toContain("Page 3 of 3");
    expect(third).toContain("Option 3");
    for (const sheet of sheets) {
      for (const secret of [INTERNAL_MARK, "INTERNAL QUOTE COPY", "PD Distance", "1985"]) {
        expect(sheet).not.toContain(secret);
      }
    }
    await page.context().close();
  });

  it("the client copy handed to the client has no internal data in its HTML", async () => {
    const { quoteId } = await insertQuote();
    for (
      const path of [
        `/quote/${quoteId}/client-print?noprint=1`,
        `/print/${quoteId}?external=true&noprint=1`,
        // Asking for the internal copy does not get it on the client's device.
        `/print/${quoteId}?external=true&noprint=1&copy=internal`,
      ]
    ) {
      const res = await htmlOf(path);
      expect(res.status).toBe(200);
      expect(res.text).toContain("EYEWEAR QUOTE");
      for (
        const secret of [INTERNAL_MARK, "INTERNAL QUOTE COPY", "print-copy-internal", EXTRA[0]]
      ) expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain(`${PD_DISTANCE} mm`);
      // No toggle, and no staff bar on the page the client holds.
      expect(res.text).not.toContain("Internal Copy");
      expect(res.text).not.toContain('class="topbar"');
    }
    const staffPage = await htmlOf(`/print/${quoteId}?copy=internal`);
    expect(staffPage.status).toBe(200);
    expect(staffPage.text).toContain(INTERNAL_MARK);
  });
});
