import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { sql } from "kysely";
import { PDFDocument } from "pdf-lib";
import { signedInUser, type TestApp } from "../helpers/test_app.ts";
import { openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, cookie: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria" }));
});

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

const sheetTexts = (page: Page) =>
  page.locator(".print-copy:not([hidden]) .print-sheet").evaluateAll((els) =>
    els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, " "))
  );

describe("prescriptions on screen and on the work order", () => {
  it("an optician enters a prescription, validated as typed, and it prints on the internal copy", async () => {
    const { quoteId, clientId } = await insertSavedQuote(app.db);
    await app.db.updateTable("quoteOptions").set({ isChosen: true }).where("quoteId", "=", quoteId)
      .execute();
    // A full left column: address, measurements with an extra, internal notes.
    await app.db.updateTable("clients").set({
      address1: "42 Elm Street",
      address2: "Apt 3",
      city: "Austin",
      state: "TX",
      zip: "78704",
      dob: "1985-04-12",
    }).where("id", "=", clientId).execute();
    await app.db.insertInto("clientMeasurements").values({
      clientId,
      pdBinocular: "62",
      pdNear: "59",
      measurementsComplete: true,
      extras: sql`'{"Vertex":"12 mm"}'::jsonb`,
    }).execute();

    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, cookie);
    await page.goto(`/clients?id=${clientId}`);
    const details = page.getByRole("dialog");
    const section = details.locator("section", {
      has: page.getByRole("heading", { name: "Prescriptions" }),
    });
    await section.getByText("No prescriptions recorded.").waitFor();
    await section.getByRole("button", { name: "Add Prescription" }).click();
    const form = section.getByRole("form", { name: "New prescription" });

    await form.getByLabel("Date written").fill("2024-01-10");
    await form.getByLabel("Prescriber").fill("Dr. Okafor");
    await form.getByLabel("Expires on (optional)").fill("2025-01-10");
    // Each field is checked as it is typed, before any save.
    const sphere = form.getByLabel("Right (OD) sphere");
    await sphere.fill("-2.13");
    await form.getByText("Sphere must be in steps of 0.25").waitFor();
    await expect(sphere.getAttribute("aria-invalid")).resolves.toBe("true");
    await sphere.fill("-2.25");
    await form.getByText("Sphere must be in steps of 0.25").waitFor({ state: "detached" });
    await form.getByLabel("Right (OD) cylinder").fill("-0.75");
    await form.getByLabel("Right (OD) axis").fill("0");
    await form.getByText("Axis must be a whole number from 1 to 180").waitFor();
    await form.getByLabel("Right (OD) axis").fill("180");
    await form.getByLabel("Right (OD) add").fill("+1.50");
    await form.getByLabel("Left (OS) sphere").fill("+31");
    await form.getByText("Sphere must be between -30.00 and +30.00").waitFor();
    await form.getByLabel("Left (OS) sphere").fill("0");
    await form.getByLabel("Left (OS) prism").fill("1");
    await form.getByLabel("Left (OS) base").selectOption("in");
    await form.getByLabel("Notes").fill("Wear for computer work. ".repeat(15));
    expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
    await shoot(page, "prescription-form");
    await form.getByRole("button", { name: "Save Prescription" }).click();

    const card = section.getByRole("listitem", { name: "Prescription written 2024-01-10" });
    await card.waitFor();
    await card.getByText("Expired").waitFor();
    const rightRow = card.getByRole("row", { name: /Right \(OD\)/ });
    await expect(rightRow.innerText()).resolves.toMatch(/-2\.25\s+-0\.75\s+180°\s+\+1\.50\s+—/);
    const leftRow = card.getByRole("row", { name: /Left \(OS\)/ });
    await expect(leftRow.innerText()).resolves.toMatch(/PL\s+—\s+—\s+—\s+1\.00 BI/);
    // The transposition toggle changes what is shown, not what is stored.
    await section.getByRole("radio", { name: "Plus cylinder" }).check();
    await expect(rightRow.innerText()).resolves.toMatch(/-3\.00\s+\+0\.75\s+90°/);
    expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
    await shoot(page, "prescription-list");
    const stored = await app.db.selectFrom("prescriptions")
      .select(sql<string>`od_sphere::text`.as("sphere")).where("clientId", "=", clientId)
      .executeTakeFirstOrThrow();
    expect(stored.sphere).toBe("-2.25");

    await page.goto(`/print/${quoteId}?copy=internal`);
    const sheets = await sheetTexts(page);
    expect(sheets).toHaveLength(2);
    for (const sheet of sheets) {
      expect(sheet).toContain("PRESCRIPTION");
      expect(sheet).toContain("by Dr. Okafor");
      expect(sheet).toContain("EXPIRED");
      expect(sheet).toMatch(/OD \(right\) -2\.25 -0\.75 180° \+1\.50 —/);
      expect(sheet).toMatch(/OS \(left\) PL — — — 1\.00 BI/);
      expect(sheet).toContain("(continued in the system)");
    }
    await shoot(page, "prescription-internal-copy");
    // Still one letter-landscape page per chosen option.
    const pdf = await PDFDocument.load(
      await page.pdf({ preferCSSPageSize: true, printBackground: true }),
    );
    expect(pdf.getPageCount()).toBe(2);

    await page.goto(`/print/${quoteId}`);
    const clientSheets = (await sheetTexts(page)).join(" ");
    expect(clientSheets).not.toContain("Okafor");
    expect(clientSheets).not.toContain("-2.25");
    expect(problems).toEqual([]);
    await close();
  });

  it("a returning client's new quote starts from last time's measurements, to be confirmed", async () => {
    const { quoteId, clientId } = await insertSavedQuote(app.db, { firstName: "Rhea" });
    await app.db.insertInto("clientMeasurements").values({
      clientId,
      pdBinocular: "64",
      pdNear: "61",
      measurementsComplete: true,
    }).execute();
    const source = await app.db.selectFrom("quoteOptions").select("id")
      .where("quoteId", "=", quoteId).orderBy("position").executeTakeFirstOrThrow();
    await app.db.insertInto("optionFrameMeasurements")
      .values({ optionId: source.id, segOc: "18/18", updatedAt: new Date() }).execute();
    const { quoteNumber } = await app.db.selectFrom("quotes").select("quoteNumber")
      .where("id", "=", quoteId).executeTakeFirstOrThrow();

    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, cookie);
    await page.goto(`/clients?id=${clientId}`);
    const details = page.getByRole("dialog");
    // The list shows the visit and the quote count.
    await details.getByRole("button", { name: "New Quote" }).click();
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}$/);
    const notice = page.getByTestId("carry-over");
    await notice.waitFor();
    await expect(notice.innerText()).resolves.toContain(`carried over from ${quoteNumber}`);
    await expect(notice.innerText()).resolves.toMatch(/PD D 64 mm, PD N 61 mm, SEG\/OC 18\/18/);
    await expect(page.locator("#qb-segoc").inputValue()).resolves.toBe("18/18");
    await shoot(page, "carry-over-builder");
    await notice.getByRole("button", { name: "Confirm measurements" }).click();
    await notice.getByText(/confirmed by/).waitFor();

    await page.goto("/clients");
    const card = page.locator(".client-card", { hasText: "Rhea Doe" });
    await expect(card.innerText()).resolves.toMatch(/Quotes\s+2/);
    await expect(card.innerText()).resolves.toMatch(/Last visit\s+\w{3} \d{1,2}, \d{4}/);
    expect(problems).toEqual([]);
    await close();
  });
});
