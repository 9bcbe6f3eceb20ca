import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Locator, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import {
  expectCount,
  openSignedIn,
  screenshotPath,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { insertSavedQuote, type OptionInit, STAFF_ONLY } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, staff: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  staff = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
});

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

// Staff-only words: none of them may reach the page the client holds.
const { internalNotes: INTERNAL_NOTE, optionNotes: OPTION_NOTE, opticianName: OPTICIAN } =
  STAFF_ONLY;
const { clientEmail: CLIENT_EMAIL, clientPhone: CLIENT_PHONE } = STAFF_ONLY;
const ITEM_NOTE = "QUOKKA-4410 supplier backorder";

/** Three options the way the builder would have saved them. */
const THREE_OPTIONS: OptionInit[] = [
  {
    // Titled by its label (not its frame SKU, which means nothing to a client), a catalog
    // package and an add-on, a named discount.
    label: "Everyday",
    adjustmentAmount: "-25.00",
    adjustmentReason: "Spring sale",
    notes: OPTION_NOTE,
    items: [
      { kind: "FRAME", name: "Ray-Ban", sku: "RB5154-2000", unitPrice: "189.00" },
      {
        kind: "PACKAGE",
        name: "Premium Progressive",
        unitPrice: "389.00",
        notes: "All-in package",
        catalogId: crypto.randomUUID(),
      },
      { kind: "ADDON", name: "Transitions", unitPrice: "120.00", catalogId: crypto.randomUUID() },
    ],
  },
  {
    // Titled by its label; a custom package, shipping, an unnamed discount.
    label: "Sport Pair",
    shipping: "15.00",
    adjustmentAmount: "-10.00",
    items: [
      { kind: "FRAME", name: "Oakley", sku: "", unitPrice: "150.00" },
      { kind: "PACKAGE", name: "Custom Package", unitPrice: "0" },
      { kind: "LENS", name: "Single Vision", unitPrice: "90.00", catalogId: crypto.randomUUID() },
      { kind: "MATERIAL", name: "Polycarbonate", unitPrice: "40.00" },
      { kind: "AR", name: "Premium AR", unitPrice: "85.00" },
      { kind: "OTHER", name: "Sports strap", unitPrice: "12.50", qty: 2, notes: ITEM_NOTE },
    ],
  },
  {
    // Neither SKU nor label: "Option 3".
    label: "",
    items: [{ kind: "FRAME", name: "House Brand", sku: "", unitPrice: "99.00" }],
  },
];

/** A client and a saved quote of THREE_OPTIONS (or `options`), with the staff-only words. */
function insertQuote(init: { status?: QuoteStatus; options?: OptionInit[] } = {}) {
  return insertSavedQuote(app.db, {
    status: init.status,
    fullOptions: init.options ?? THREE_OPTIONS,
  });
}

async function quoteState(quoteId: string) {
  const quote = await app.db.selectFrom("quotes").select(["status", "version"])
    .where("id", "=", quoteId).executeTakeFirstOrThrow();
  const options = await app.db.selectFrom("quoteOptions").select(["id", "isChosen"])
    .where("quoteId", "=", quoteId).orderBy("position").execute();
  return { ...quote, chosen: options.filter((o) => o.isChosen).map((o) => o.id) };
}

// ---------------------------------------------------------------------------
// Browser helpers

/** A signed-in tablet page that records page errors, console errors and API calls. */
async function openTablet(path: string, viewport = TABLET_LANDSCAPE) {
  const cookie = await sessionCookieFor(app.db, staff.id);
  const opened = await openSignedIn(browser, app.baseUrl, cookie, viewport, {
    hasTouch: true,
    // The refused save of the failure test is logged by the browser itself.
    ignoreConsole: (text) => text.includes("409"),
  });
  const response = await opened.page.goto(path);
  // Pages without an island (Quote Not Found) ship no script and never hydrate.
  if (await opened.page.locator("[data-island]").count()) {
    await opened.page.waitForSelector("html[data-hydrated=true]");
  }
  return { ...opened, status: response?.status() };
}

const toggle = (page: Page, title: string) =>
  page.getByRole("checkbox", { name: title, exact: true });
const card = (page: Page, title: string): Locator =>
  page.locator(".tablet-card").filter({ has: toggle(page, title) });
const confirmButton = (page: Page) => page.getByRole("button", { name: "Confirm Selection(s)" });
const countBanner = (page: Page) => page.getByTestId("selection-count");

async function checked(page: Page, title: string): Promise<string | null> {
  return await toggle(page, title).getAttribute("aria-checked");
}

async function toastSays(page: Page, text: string) {
  await page.locator(".toast-region").getByText(text, { exact: true }).waitFor();
}

/** How far the widest thing on the page sticks out past the viewport's right edge. */
async function horizontalOverflow(page: Page): Promise<number> {
  return await page.evaluate(() => {
    const viewport = globalThis.innerWidth;
    let widest = document.documentElement.scrollWidth;
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      widest = Math.max(widest, Math.ceil(el.getBoundingClientRect().right));
    }
    return widest - viewport;
  });
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (!path) return;
  // Let colour and border transitions settle so the picture shows the final state.
  await page.waitForTimeout(250);
  // What the client sees: the top of the page, then its end, where the bar sits.
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  await page.screenshot({ path });
  await page.evaluate(() => globalThis.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(100);
  await page.screenshot({ path: path.replace(/\.png$/, "-end.png") });
}

async function htmlOf(path: string) {
  const cookie = await sessionCookieFor(app.db, staff.id);
  return await call(app, "GET", path, { cookie, headers: { accept: "text/html" } });
}

// ---------------------------------------------------------------------------

describe("tablet option selection", () => {
  it("at 1024×768 the client picks two options and confirms", async () => {
    const { quoteId, optionIds } = await insertQuote();
    const { page, problems, apiCalls } = await openTablet(`/tablet/${quoteId}`);
    // Everything came with the HTML: no call was needed for the first paint.
    expect(apiCalls).toEqual([]);

    await expect(
      page.getByRole("heading", { name: "Select Your Preferred Options", level: 1 })
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByText("For: Jane Doe", { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.locator("img.tablet-logo").getAttribute("src")).resolves.toBe(
      "/static/logo.svg",
    );
    // The client holds the tablet: no staff bar.
    await expectCount(page.locator(".topbar"), 0);
    // Titles: the option's label, else "Option N".
    await expect(page.getByRole("checkbox").evaluateAll((els) => els.map((e) => e.textContent)))
      .resolves.toEqual(["Everyday", "Sport Pair", "Option 3"]);
    await shoot(page, "tablet-landscape-before");

    await card(page, "Everyday").tap();
    await card(page, "Option 3").tap();
    await expect(countBanner(page).textContent()).resolves.toBe("2 options selected");
    await expect(card(page, "Everyday").getByText("Selected", { exact: true }).isVisible())
      .resolves.toBe(true);
    await expect(card(page, "Sport Pair").getByText("Selected", { exact: true }).count())
      .resolves.toBe(0);
    await shoot(page, "tablet-landscape-selected");

    const sent = page.waitForRequest((req) => req.method() === "PUT");
    await confirmButton(page).tap();
    const body = (await sent).postDataJSON();
    expect(body).toEqual({
      version: 1,
      options: [
        { id: optionIds[0], isChosen: true },
        { id: optionIds[1], isChosen: false },
        { id: optionIds[2], isChosen: true },
      ],
    });
    await toastSays(page, "Your choices have been saved successfully!");
    await expect(page.getByText("Selection Confirmed", { exact: true }).isVisible()).resolves
      .toBe(true);
    const thanks = page.getByRole("heading", { name: "Thank You!" });
    await thanks.waitFor();
    // The client confirmed at the bottom of the page; the thanks come into view.
    await expect(thanks.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(thanks.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= globalThis.innerHeight;
    })).resolves.toBe(true);
    const print = page.getByRole("link", { name: "Print Client Copy" });
    await expect(print.getAttribute("href")).resolves.toBe(`/quote/${quoteId}/client-print`);
    await expectCount(confirmButton(page), 0);
    await shoot(page, "tablet-landscape-after");

    const state = await quoteState(quoteId);
    expect(state.chosen.sort()).toEqual([optionIds[0], optionIds[2]].sort());
    expect(state.status).toBe("ACCEPTED");
    expect(state.version).toBe(2);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows each option's price breakdown for the client", async () => {
    const { quoteId } = await insertQuote();
    const { page } = await openTablet(`/tablet/${quoteId}`);
    const rows = (title: string) =>
      card(page, title).locator("tr").evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.children, (cell) => (cell as HTMLElement).innerText.replace(/\s+/g, " "))
            .join(" | ")
        )
      );
    await expect(rows("Everyday")).resolves.toEqual([
      "FRAME Ray-Ban | $189.00",
      "LENS PACKAGE Premium Progressive | $389.00",
      "ADD-ON Transitions | $120.00",
      "Subtotal | $698.00",
      "Spring sale | -$25.00",
      "Total | $673.00",
    ]);
    // The free custom-package placeholder is left out; its parts carry the prices.
    await expect(rows("Sport Pair")).resolves.toEqual([
      "FRAME Oakley | $150.00",
      "LENS Single Vision | $90.00",
      "MATERIAL Polycarbonate | $40.00",
      "ANTI-REFLECTIVE Premium AR | $85.00",
      "OTHER Sports strap × 2 | $25.00",
      "Subtotal | $390.00",
      "Shipping | $15.00",
      "Promo | -$10.00",
      "Total | $395.00",
    ]);
    // No shipping or adjustment: neither line, and no subtotal repeating the total.
    await expect(rows("Option 3")).resolves.toEqual([
      "FRAME House Brand | $99.00",
      "Total | $99.00",
    ]);
    const totalWeight = await card(page, "Option 3").locator(".tablet-total td")
      .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(totalWeight)).toBeGreaterThanOrEqual(700);
    const discountColor = await card(page, "Everyday").locator(".tablet-discount td")
      .evaluate((el) => getComputedStyle(el).color);
    expect(discountColor).toBe("rgb(23, 102, 58)");
    await page.context().close();
  });

  it("Confirm is disabled until something is chosen; taps and keys toggle; the banner follows", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openTablet(`/tablet/${quoteId}`);
    await expect(confirmButton(page).isDisabled()).resolves.toBe(true);
    await expect(countBanner(page).textContent()).resolves.toBe("No options selected yet");

    await card(page, "Sport Pair").tap();
    await expect(checked(page, "Sport Pair")).resolves.toBe("true");
    await expect(countBanner(page).textContent()).resolves.toBe("1 option selected");
    await expect(confirmButton(page).isEnabled()).resolves.toBe(true);

    // A tap anywhere on the card, here low down on its price table, toggles it.
    const first = card(page, "Everyday");
    const box = (await first.boundingBox())!;
    await first.tap({ position: { x: box.width / 2, y: box.height - 30 } });
    await expect(countBanner(page).textContent()).resolves.toBe("2 options selected");

    await card(page, "Sport Pair").tap();
    await expect(checked(page, "Sport Pair")).resolves.toBe("false");
    await expect(countBanner(page).textContent()).resolves.toBe("1 option selected");

    // Keyboard: Space and Enter on the focused card.
    await toggle(page, "Option 3").focus();
    await page.keyboard.press("Space");
    await expect(checked(page, "Option 3")).resolves.toBe("true");
    await expect(countBanner(page).textContent()).resolves.toBe("2 options selected");
    await page.keyboard.press("Enter");
    await expect(checked(page, "Option 3")).resolves.toBe("false");

    await card(page, "Everyday").tap();
    await expect(countBanner(page).textContent()).resolves.toBe("No options selected yet");
    await expect(confirmButton(page).isDisabled()).resolves.toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("opens with nothing selected whatever staff ticked for the internal print, and locks the cards after confirming", async () => {
    const options = THREE_OPTIONS.map((o, i) => ({ ...o, isChosen: i !== 1 }));
    const { quoteId, optionIds } = await insertQuote({ options });
    const { page, apiCalls } = await openTablet(`/tablet/${quoteId}`);
    // The page says "Tap an option to select it": the choice starts with the client.
    for (const title of ["Everyday", "Sport Pair", "Option 3"]) {
      await expect(checked(page, title)).resolves.toBe("false");
    }
    await expect(countBanner(page).textContent()).resolves.toBe("No options selected yet");
    await card(page, "Sport Pair").tap();
    await expect(countBanner(page).textContent()).resolves.toBe("1 option selected");

    await confirmButton(page).tap();
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    const callsAfterConfirm = apiCalls.length;
    for (const title of ["Everyday", "Sport Pair"]) {
      await card(page, title).tap();
      await card(page, title).click();
    }
    await toggle(page, "Option 3").focus();
    await page.keyboard.press("Space");
    await expect(checked(page, "Sport Pair")).resolves.toBe("true");
    await expect(checked(page, "Everyday")).resolves.toBe("false");
    await expect(checked(page, "Option 3")).resolves.toBe("false");
    await expect(toggle(page, "Sport Pair").getAttribute("aria-disabled")).resolves.toBe("true");
    expect(apiCalls.length).toBe(callsAfterConfirm);
    expect((await quoteState(quoteId)).chosen).toEqual([optionIds[1]]);
    await page.context().close();
  });

  it("a refused save shows the failure toast and keeps the selection", async () => {
    const { quoteId, optionIds } = await insertQuote();
    const { page, problems } = await openTablet(`/tablet/${quoteId}`);
    await card(page, "Sport Pair").tap();
    await card(page, "Option 3").tap();
    // Staff save the quote in the builder while the client is choosing.
    await app.db.updateTable("quotes").set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", quoteId).execute();

    const answer = page.waitForResponse((res) => res.request().method() === "PUT");
    await confirmButton(page).tap();
    expect((await answer).status()).toBe(409);
    await toastSays(page, "Failed to save your selection. Please try again.");
    await expectCount(page.locator(".toast-destructive"), 1);
    // The toast must not cover the button the client needs to try again.
    const toastBox = (await page.locator(".toast-destructive").boundingBox())!;
    const buttonBox = (await confirmButton(page).boundingBox())!;
    expect(
      toastBox.y + toastBox.height <= buttonBox.y || buttonBox.y + buttonBox.height <= toastBox.y,
    ).toBe(true);
    await page.getByText("This quote was just updated by the store.", { exact: false }).waitFor();
    await expect(checked(page, "Sport Pair")).resolves.toBe("true");
    await expect(checked(page, "Option 3")).resolves.toBe("true");
    await expect(countBanner(page).textContent()).resolves.toBe("2 options selected");
    await expectCount(page.getByRole("heading", { name: "Thank You!" }), 0);
    await shoot(page, "tablet-landscape-refused");
    expect((await quoteState(quoteId)).chosen).toEqual([]);

    // The page picked up the current version, so trying again works.
    await confirmButton(page).tap();
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    const state = await quoteState(quoteId);
    expect(state.chosen.sort()).toEqual([optionIds[1], optionIds[2]].sort());
    expect(state.status).toBe("ACCEPTED");
    expect(state.version).toBe(3);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a closed or finalized quote shows why instead of the confirm button", async () => {
    const options = THREE_OPTIONS.map((o, i) => ({ ...o, isChosen: i === 0 }));
    const { quoteId } = await insertQuote({ status: "CLOSED", options });
    const { page, problems } = await openTablet(`/tablet/${quoteId}`, TABLET_PORTRAIT);
    await page.getByText("This quote is closed and can no longer be changed.").waitFor();
    await expectCount(confirmButton(page), 0);
    await card(page, "Sport Pair").tap();
    await expect(checked(page, "Sport Pair")).resolves.toBe("false");
    await expect(checked(page, "Everyday")).resolves.toBe("true");
    await shoot(page, "tablet-portrait-closed");
    expect(problems).toEqual([]);
    await page.context().close();

    const finalized = await insertQuote({ status: "FINALIZED" });
    const res = await htmlOf(`/tablet/${finalized.quoteId}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("This quote is finalized and can no longer be changed.");
    expect(res.text).not.toContain("Confirm Selection(s)");
  });

  it("an unknown or malformed id shows Quote Not Found with status 404", async () => {
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      const { page, status, problems } = await openTablet(`/tablet/${id}`, TABLET_PORTRAIT);
      expect(status).toBe(404);
      // The browser reports the 404 of the page itself; that one is intended.
      const others = problems.filter((p) => !p.includes("status of 404"));
      await expect(page.getByRole("heading", { name: "Quote Not Found", level: 1 }).isVisible())
        .resolves.toBe(true);
      await expectCount(page.locator(".topbar"), 0);
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      if (id === "not-a-uuid") await shoot(page, "tablet-portrait-not-found");
      expect(others).toEqual([]);
      await page.context().close();
    }
  });

  it("never puts staff-only data in the page, not even in the island's JSON", async () => {
    const { quoteId } = await insertQuote();
    const res = await htmlOf(`/tablet/${quoteId}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("Select Your Preferred Options");
    for (const secret of [INTERNAL_NOTE, ITEM_NOTE, OPTION_NOTE, OPTICIAN, CLIENT_EMAIL]) {
      expect(res.text).not.toContain(secret);
    }
    for (const word of ["ZEBRA", "QUOKKA", "WOMBAT", CLIENT_PHONE, "internalNotes"]) {
      expect(res.text).not.toContain(word);
    }
  });

  it("the signed-out visitor is sent to sign in", async () => {
    const { quoteId } = await insertQuote();
    const res = await call(app, "GET", `/tablet/${quoteId}`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(
      `/staff?returnTo=${encodeURIComponent(`/tablet/${quoteId}`)}`,
    );
  });

  for (
    const [name, viewport] of [["landscape", TABLET_LANDSCAPE], [
      "portrait",
      TABLET_PORTRAIT,
    ]] as const
  ) {
    it(`fits a ${viewport.width}×${viewport.height} ${name} tablet with big type and targets`, async () => {
      const { quoteId } = await insertQuote();
      const { page, problems } = await openTablet(`/tablet/${quoteId}`, viewport);
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);

      const columns = await page.locator(".tablet-grid").evaluate((el) =>
        getComputedStyle(el).gridTemplateColumns.split(" ").length
      );
      expect(columns).toBe(name === "landscape" ? 2 : 1);
      const bodySize = await page.evaluate(() =>
        parseFloat(getComputedStyle(document.body).fontSize)
      );
      expect(bodySize).toBeGreaterThanOrEqual(18);
      const priceSize = await page.locator(".tablet-prices td").first().evaluate((el) =>
        parseFloat(getComputedStyle(el).fontSize)
      );
      expect(priceSize).toBeGreaterThanOrEqual(18);
      for (
        const box of await page.locator(".tablet-card").evaluateAll((els) =>
          els.map((el) => el.getBoundingClientRect().toJSON())
        )
      ) {
        expect(box.height).toBeGreaterThanOrEqual(56);
        expect(box.width).toBeGreaterThanOrEqual(56);
      }
      const confirmBox = await confirmButton(page).boundingBox();
      expect(confirmBox!.height).toBeGreaterThanOrEqual(56);
      await shoot(page, `tablet-${name}-start`);

      await card(page, "Sport Pair").tap();
      await shoot(page, `tablet-${name}-selected`);
      await confirmButton(page).tap();
      await page.getByRole("heading", { name: "Thank You!" }).waitFor();
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      const printBox = await page.getByRole("link", { name: "Print Client Copy" }).boundingBox();
      expect(printBox!.height).toBeGreaterThanOrEqual(56);
      await shoot(page, `tablet-${name}-confirmed`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
