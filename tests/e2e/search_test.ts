import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";
import { signedInUser, type TestApp } from "../helpers/test_app.ts";
import {
  DESKTOP,
  expectCount,
  openSignedIn,
  PHONE,
  screenshotPath,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, cookie: string, annId: string;
let quote: { id: string; quoteNumber: string };

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria", role: "ADMIN" }));
  const ann = await app.db.insertInto("clients").values({
    firstName: "Annika",
    lastName: "Lindqvist",
    email: "annika.lindqvist@example.com",
    mobilePhone: "(555) 201-7788",
  }).returning("id").executeTakeFirstOrThrow();
  annId = ann.id;
  await app.db.insertInto("clients").values({ firstName: "Joanna", lastName: "Berg" }).execute();
  quote = await app.db.insertInto("quotes").values({
    clientId: ann.id,
    status: "ACTIVE",
    opticianName: "Dr. Ortiz",
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
});

async function open(path = "/dashboard", viewport = DESKTOP): Promise<Page> {
  const { page } = await openSignedIn(browser, app.baseUrl, cookie, viewport);
  await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return page;
}

const box = (page: Page) => page.getByRole("combobox", { name: "Search clients and quotes" });
const hint = (page: Page) => page.locator(".staff-search-hint");

describe("global search in the staff bar", () => {
  it("is found and used with the keyboard alone", async () => {
    const page = await open();
    // "/" from anywhere on the page moves to the box.
    await page.keyboard.press("/");
    await expect(box(page).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(box(page).inputValue()).resolves.toBe("");

    await page.keyboard.type("an");
    await hint(page).getByText("Type 3+ characters to search").waitFor();
    await expect(box(page).getAttribute("aria-expanded")).resolves.toBe("false");

    // While the answer is on its way the panel says so.
    let release!: () => void;
    const held = new Promise<void>((resolve) => release = resolve);
    await page.route("**/api/search?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.keyboard.type("n");
    await hint(page).getByText("Searching...").waitFor();
    release();
    const listbox = page.getByRole("listbox", { name: "Search results" });
    await listbox.waitFor();
    await page.unroute("**/api/search?*");

    // Grouped by type, each with its title, subtitle and type.
    const groups = listbox.getByRole("group");
    await expectCount(groups, 2);
    const clients = listbox.getByRole("group", { name: "Clients" }).getByRole("option");
    await expect(clients.allTextContents()).resolves.toEqual([
      "Annika Lindqvistannika.lindqvist@example.com · (555) 201-7788Client",
      "Joanna BergClient",
    ]);
    const quotes = listbox.getByRole("group", { name: "Quotes" }).getByRole("option");
    await expect(quotes.allTextContents()).resolves.toEqual([
      `${quote.quoteNumber}Annika Lindqvist · Active · Dr. OrtizQuote`,
    ]);
    await expect(box(page).getAttribute("aria-expanded")).resolves.toBe("true");

    const shot = screenshotPath("search-desktop");
    if (shot) await page.screenshot({ path: shot });

    // Arrow keys move through the options across groups, wrapping round.
    const active = () =>
      box(page).evaluate((el) =>
        document.getElementById(el.getAttribute("aria-activedescendant") ?? "")?.textContent
      );
    await page.keyboard.press("ArrowDown");
    await expect(active()).resolves.toContain("Annika Lindqvist");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(active()).resolves.toContain(quote.quoteNumber);
    await expect(quotes.first().getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("ArrowDown");
    await expect(active()).resolves.toContain("Annika Lindqvist");
    await page.keyboard.press("ArrowUp");
    await expect(active()).resolves.toContain(quote.quoteNumber);

    // Escape closes the list and keeps the text; a second one clears it.
    await page.keyboard.press("Escape");
    await expect(box(page).getAttribute("aria-expanded")).resolves.toBe("false");
    await expect(box(page).getAttribute("aria-activedescendant")).resolves.toBeNull();
    await expect(box(page).inputValue()).resolves.toBe("ann");
    await page.keyboard.press("Escape");
    await expect(box(page).inputValue()).resolves.toBe("");

    // Nothing found says so.
    await page.keyboard.type("zzqx");
    await hint(page).getByText("No results found").waitFor();

    // Enter opens the chosen result.
    await box(page).fill("");
    await page.keyboard.type("lindqvist");
    await listbox.getByRole("option").first().waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await Promise.all([page.waitForURL(`**/quote/${quote.id}`), page.keyboard.press("Enter")]);
    await page.context().close();
  });

  it("Enter with nothing highlighted opens the best match", async () => {
    const page = await open("/quotes");
    await box(page).click();
    await page.keyboard.type("annika lind");
    await page.getByRole("listbox", { name: "Search results" }).getByRole("option").first()
      .waitFor();
    await Promise.all([page.waitForURL(`**/clients?id=${annId}`), page.keyboard.press("Enter")]);
    await page.getByRole("dialog").getByText("annika.lindqvist@example.com").first().waitFor();
    await page.context().close();
  });

  it("'/' types normally in other fields", async () => {
    const page = await open("/clients");
    const field = page.getByRole("searchbox", { name: "Search clients by name, email or phone" });
    await field.click();
    await page.keyboard.type("a/b");
    await expect(field.inputValue()).resolves.toBe("a/b");
    await expect(box(page).inputValue()).resolves.toBe("");
    await page.context().close();
  });

  it("has no axe violations with the results open", async () => {
    const page = await open();
    await box(page).click();
    await page.keyboard.type("ann");
    await page.getByRole("listbox", { name: "Search results" }).getByRole("option").first()
      .waitFor();
    await page.keyboard.press("ArrowDown");
    // Every rule axe runs by default, and WCAG 2.2's target size, which it does not.
    const { violations } = await new AxeBuilder({ page }).include(".topbar")
      .options({ rules: { "target-size": { enabled: true } } }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`))
      .toEqual([]);
    await page.context().close();
  });

  for (const [name, viewport] of [["tablet", TABLET_PORTRAIT], ["phone", PHONE]] as const) {
    it(`fits a ${name} (${viewport.width} px) with its results open`, async () => {
      const page = await open("/dashboard", viewport);
      await box(page).click();
      await page.keyboard.type("ann");
      const panel = page.locator(".staff-search-panel");
      await page.getByRole("listbox", { name: "Search results" }).getByRole("option").first()
        .waitFor();
      const [input, list] = [await box(page).boundingBox(), await panel.boundingBox()];
      for (const rect of [input!, list!]) {
        expect(rect.x).toBeGreaterThanOrEqual(0);
        expect(rect.x + rect.width).toBeLessThanOrEqual(viewport.width);
      }
      const overflow = await page.evaluate(() =>
        Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) -
        globalThis.innerWidth
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const shot = screenshotPath(`search-${name}`);
      if (shot) await page.screenshot({ path: shot });
      await page.context().close();
    });
  }
});
