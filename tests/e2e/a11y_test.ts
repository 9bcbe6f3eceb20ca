// Keyboard and screen-reader use of every screen: axe-core (WCAG 2.1 A/AA)
// finds no serious or critical violation on each page, in its open dialogs
// and in its error states; every focus stop shows where focus is; the staff
// Menu closes like a menu; statuses read as words. (Screens whose own tests
// already run axe: the CSV import preview, the history tabs, the audit log,
// reports and the global search; they are scanned here again at rest.)
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Locator, Page } from "playwright-core";
import type { TestApp } from "../helpers/test_app.ts";
import { createTestUser, kioskCookieFor, sessionCookieFor } from "../helpers/test_app.ts";
import { openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { insertDraftQuote } from "../../src/quotes/quotes.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp;
let browser: Browser;
let ownerCookie: string;
let opticianCookie: string;
let ownerId: string;
let quoteId: string;
let pendingQuoteId: string;
let clientId: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await ensureDefaultCatalog(app.db);
  const owner = await createTestUser(app.db, { role: "OWNER", firstName: "Olga" });
  const optician = await createTestUser(app.db, { firstName: "Omar" });
  ownerId = owner.id;
  ownerCookie = await sessionCookieFor(app.db, owner.id);
  opticianCookie = await sessionCookieFor(app.db, optician.id);
  const saved = await insertSavedQuote(app.db, { firstName: "Alma" });
  quoteId = saved.quoteId;
  clientId = saved.clientId;
  pendingQuoteId = (await insertSavedQuote(app.db, {
    firstName: "Penny",
    status: "PENDING_MEASUREMENTS",
  })).quoteId;
});

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

async function settle(page: Page) {
  await page.waitForLoadState("load");
  if (await page.locator("[data-island]").count()) {
    await page.waitForSelector("html[data-hydrated=true]");
  }
}

/** axe on the page as it is now; the name says which state failed. */
async function scan(page: Page, name: string) {
  await shoot(page, `a11y-${name}`);
  expect({ name, violations: await seriousA11yViolations(page) })
    .toEqual({ name, violations: [] });
}

const openDialog = (page: Page) => page.locator("dialog[open]").last();

/** Clicks `opener`, scans the dialog it opens, then closes it with Escape. */
async function scanDialog(
  page: Page,
  opener: Locator,
  name: string,
  inside?: (d: Locator) => Promise<void>,
) {
  await opener.click();
  const dialog = openDialog(page);
  await dialog.waitFor();
  await scan(page, name);
  if (inside) await inside(dialog);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
}

async function visit(cookie: string | null, path: string) {
  if (cookie) {
    const opened = await openSignedIn(browser, app.baseUrl, cookie);
    await opened.page.goto(path);
    await settle(opened.page);
    return opened;
  }
  const context = await browser.newContext({ baseURL: app.baseUrl });
  const page = await context.newPage();
  await page.goto(path);
  await settle(page);
  return { page, problems: [] as string[], close: () => context.close() };
}

/** The screens an owner works in, each scanned and walked by keyboard below. */
const ownerScreens = () => [
  "/dashboard",
  "/clients",
  "/quotes",
  `/quote/${quoteId}`,
  "/intake",
  `/print/${quoteId}`,
  "/admin",
  "/admin/users",
  "/admin/settings",
  `/tablet/${quoteId}`,
];

describe("accessibility of every screen", () => {
  it("signed-out pages: landing, sign-in and its error, intake and its errors, not found", async () => {
    const { page, close } = await visit(null, "/");
    await scan(page, "landing");
    await page.goto("/staff");
    await settle(page);
    await scan(page, "sign-in");
    await page.getByLabel("Username").fill("nobody");
    await page.locator("input[name=password]").fill("wrong password");
    await page.getByRole("button", { name: /sign in/i }).click();
    await page.getByText("Login Failed").first().waitFor();
    await scan(page, "sign-in-error");
    await page.goto("/intake");
    await settle(page);
    await scan(page, "intake");
    await page.getByRole("button", { name: "Submit Intake Form" }).click();
    await page.locator("[aria-invalid=true]").first().waitFor();
    await scan(page, "intake-errors");
    await page.goto("/no-such-page");
    await scan(page, "not-found");
    await close();
  });

  it("staff screens at rest, as owner", async () => {
    const { page, close } = await visit(ownerCookie, "/dashboard");
    for (
      const path of [
        ...ownerScreens(),
        `/print/${quoteId}?copy=internal`,
        "/admin/audit",
        "/reports",
        "/print/not-a-uuid",
      ]
    ) {
      await page.goto(path);
      await settle(page);
      await scan(page, path.replace(/[^a-z0-9]+/gi, "-"));
    }
    await close();
  });

  it("the optician's refusal page and screens", async () => {
    const { page, close } = await openSignedIn(browser, app.baseUrl, opticianCookie);
    // The notice leaves for / after 0.5 s, which would take the page away in the middle of the
    // scan: its timer line is taken out of the page as served, nothing else.
    let timerRemoved = false;
    await page.route("**/admin", async (route) => {
      const res = await route.fetch();
      const html = await res.text();
      const body = html.replace(/setTimeout\(function\(\)\{location\.replace\("\/"\)\},\d+\);/, "");
      timerRemoved = body !== html;
      await route.fulfill({ response: res, body });
    });
    await page.goto("/admin");
    await settle(page);
    expect(timerRemoved).toBe(true);
    await scan(page, "optician-unauthorized");
    await close();
    const dashboard = await visit(opticianCookie, "/dashboard");
    await scan(dashboard.page, "optician-dashboard");
    await dashboard.close();
  });

  it("a tablet handed to the client", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "QUOTE", quoteId, handedOverBy: ownerId });
    const context = await browser.newContext({ baseURL: app.baseUrl });
    await context.addCookies([{
      name: kiosk.split("=")[0],
      value: kiosk.split("=")[1],
      url: app.baseUrl,
    }]);
    const page = await context.newPage();
    await page.goto(`/tablet/${quoteId}`);
    await settle(page);
    await scan(page, "kiosk-tablet");
    await context.close();
  });

  it("dialogs and error states: clients, builder, quotes, catalog, users, settings", async () => {
    // E-mail configured, so the e-mail dialogs open.
    await app.db.updateTable("settings").set({
      smtpHost: "127.0.0.1",
      smtpPort: 2525,
      smtpFromEmail: "store@example.com",
    }).where("id", "=", 1).execute();
    const { page, problems, close } = await visit(ownerCookie, "/clients");

    await scanDialog(
      page,
      page.getByRole("button", { name: "Add New Client" }),
      "client-add",
      async (d) => {
        await d.getByRole("button", { name: "Add Client" }).click();
        await d.locator("[aria-invalid=true]").first().waitFor();
        await scan(page, "client-add-errors");
      },
    );
    await scanDialog(page, page.getByRole("button", { name: "Edit Alma Doe" }), "client-edit");
    await scanDialog(page, page.getByRole("button", { name: "Delete Alma Doe" }), "client-delete");
    await scanDialog(
      page,
      page.getByRole("button", { name: "Alma Doe", exact: true }),
      "client-detail",
      async (d) => {
        await d.getByRole("button", { name: "Edit Measurements" }).click();
        await d.getByLabel("PD Distance").fill("999");
        await d.getByRole("button", { name: "Save Measurements" }).click();
        await d.locator("[aria-invalid=true]").first().waitFor();
        await scan(page, "client-measurements-errors");
      },
    );

    // The builder: its dialogs, and a save refused field by field.
    await page.goto(`/quote/${quoteId}`);
    await settle(page);
    await scanDialog(
      page,
      page.getByRole("button", { name: "Edit client measurements" }),
      "builder-measurements",
    );
    await scanDialog(page, page.getByRole("button", { name: "Close Quote" }), "builder-close");
    await scanDialog(
      page,
      page.getByRole("button", { name: "Email Quote" }),
      "builder-email",
      async (d) => {
        await d.getByLabel("Client's email address").fill("not-an-address");
        await d.getByRole("button", { name: "Send Email" }).click();
        await d.locator("[aria-invalid=true]").first().waitFor();
        await scan(page, "builder-email-errors");
      },
    );
    await scanDialog(
      page,
      page.getByRole("button", { name: "Hand to Client" }),
      "builder-hand-to-client",
    );
    const draft = await insertDraftQuote(
      app.db,
      clientId,
      ownerId,
      (await findFirstStore(app.db)).id,
    );
    await page.goto(`/quote/${draft.id}`);
    await settle(page);
    await page.getByRole("button", { name: "Save Quote" }).click();
    await page.locator("[aria-invalid=true]").first().waitFor();
    await scan(page, "builder-save-errors");

    // The quotes list's row dialogs.
    await page.goto("/quotes");
    await settle(page);
    const row = page.getByRole("group", { name: /Actions for quote/ }).first();
    await scanDialog(page, row.getByRole("button", { name: "Email" }), "quotes-email");
    // Close and Delete are in the row's menu.
    const rowMenu = row.locator("details.row-menu > summary");
    await rowMenu.click();
    await scanDialog(page, page.getByRole("menuitem", { name: "Close" }), "quotes-close");
    await rowMenu.click();
    await scanDialog(page, page.getByRole("menuitem", { name: "Delete" }), "quotes-delete");

    // Catalog and users: add forms, empty and refused.
    await page.goto("/admin");
    await settle(page);
    await scanDialog(
      page,
      page.getByRole("button", { name: /^Add / }).first(),
      "catalog-add",
      async (d) => {
        await d.getByRole("button", { name: /^Add / }).click();
        await d.locator("[aria-invalid=true]").first().waitFor();
        await scan(page, "catalog-add-errors");
      },
    );
    await page.goto("/admin/users");
    await settle(page);
    await scanDialog(
      page,
      page.getByRole("button", { name: "Add User" }),
      "users-add",
      async (d) => {
        await d.getByRole("button", { name: "Create User" }).click();
        await d.locator("[aria-invalid=true]").first().waitFor();
        await scan(page, "users-add-errors");
      },
    );
    await scanDialog(
      page,
      page.getByRole("button", { name: "Change My Password" }),
      "users-own-password",
    );

    // Settings: a refused save.
    await page.goto("/admin/settings");
    await settle(page);
    await page.getByLabel(/Store Email/).first().fill("not-an-address");
    await page.getByRole("button", { name: "Save Settings" }).first().click();
    await page.locator("[aria-invalid=true]").first().waitFor();
    await scan(page, "settings-errors");
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
    await close();
  });

  it("the staff Menu closes on Escape and on a click outside", async () => {
    const { page, close } = await visit(opticianCookie, "/dashboard");
    const menu = page.locator("details.menu");
    const button = page.locator("details.menu > summary");
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(menu.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
    await page.getByRole("link", { name: "Logout" }).waitFor();
    await scan(page, "menu-open");
    await page.keyboard.press("Escape");
    await expect(menu.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
    // Focus goes back to the Menu button.
    await expect(button.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

    await button.click();
    await expect(menu.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
    await page.locator("main h1").first().click();
    await expect(menu.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
    // A click on the menu itself keeps it working: open, then its own button closes it.
    await button.click();
    await page.getByRole("link", { name: "Logout" }).hover();
    await expect(menu.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
    await button.click();
    await expect(menu.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
    await close();
  });

  it("every focus stop shows where focus is", async () => {
    const { page, close } = await visit(ownerCookie, "/dashboard");
    for (const path of ownerScreens()) {
      await page.goto(path);
      await settle(page);
      const unseen: string[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < 45; i++) {
        await page.keyboard.press("Tab");
        const stop = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const name = `${el.tagName.toLowerCase()} ${
            (el.getAttribute("aria-label") ?? el.textContent ?? el.getAttribute("name") ?? "")
              .trim().slice(0, 40)
          }`;
          // The focus ring is on the element, or on the card it stretches over.
          const ringed = (node: Element) => {
            const style = getComputedStyle(node);
            return (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) ||
              style.boxShadow !== "none";
          };
          const card = el.closest(".client-card, .tablet-card");
          return { name, visible: ringed(el) || (!!card && ringed(card)) };
        });
        if (!stop) continue;
        if (seen.has(stop.name)) continue;
        seen.add(stop.name);
        if (!stop.visible) unseen.push(stop.name);
      }
      expect({ path, unseen }).toEqual({ path, unseen: [] });
      expect(seen.size).toBeGreaterThan(2);
    }
    await close();
  });

  it("the intake can be completed by keyboard alone, on the tablet handed to the client", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: ownerId });
    const context = await browser.newContext({ baseURL: app.baseUrl });
    await context.addCookies([{
      name: kiosk.split("=")[0],
      value: kiosk.split("=")[1],
      url: app.baseUrl,
    }]);
    const page = await context.newPage();
    await page.goto("/intake");
    await settle(page);
    const typed: Record<string, string> = {
      "First Name": "Ada",
      "Last Name": "Lovelace",
      "Email": "ada@example.com",
      // SMS consent needs a number to text.
      "Mobile Phone": "(555) 010-2030",
    };
    const done = new Set<string>();
    for (let i = 0; i < 80 && !done.has("submit"); i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        if (!el) return { label: "", type: "", tag: "" };
        const label =
          (el.labels?.[0]?.textContent ?? el.getAttribute("aria-label") ?? el.textContent ?? "")
            .replace(/\*/g, "").trim();
        return { label, type: el.type ?? "", tag: el.tagName };
      });
      if (typed[focused.label] !== undefined && !done.has(focused.label)) {
        await page.keyboard.type(typed[focused.label]);
        done.add(focused.label);
      } else if (focused.type === "radio" && !done.has("radio")) {
        // Arrow keys pick within the group; Space checks the one focused.
        await page.keyboard.press("Space");
        done.add("radio");
      } else if (focused.type === "checkbox" && /SMS/.test(focused.label) && !done.has("sms")) {
        await page.keyboard.press("Space");
        done.add("sms");
      } else if (focused.tag === "BUTTON" && focused.label === "Submit Intake Form") {
        await page.keyboard.press("Enter");
        done.add("submit");
      }
    }
    expect([...done].sort()).toEqual([
      "Email",
      "First Name",
      "Last Name",
      "Mobile Phone",
      "radio",
      "sms",
      "submit",
    ]);
    // The closing line under the button is always there: the heading is what submitting shows.
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    const clients = await app.db.selectFrom("clients")
      .select(["firstName", "lastName", "email", "mobilePhone", "smsConsent"]).execute();
    expect(clients).toContainEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      mobilePhone: "(555) 010-2030",
      smsConsent: true,
    });
    await scan(page, "intake-thanks");
    await context.close();
  });

  it("statuses read as words, never as codes", async () => {
    const { page, close } = await visit(ownerCookie, "/dashboard");
    for (
      const path of [
        "/dashboard",
        "/quotes",
        `/quote/${pendingQuoteId}`,
        `/print/${pendingQuoteId}`,
      ]
    ) {
      await page.goto(path);
      await settle(page);
      const tree = await page.locator("body").ariaSnapshot();
      expect({ path, pending: /Pending Measurements/i.test(tree) }).toEqual({
        path,
        pending: true,
      });
      expect({ path, codes: tree.match(/\b[A-Z]{3,}_[A-Z_]+\b/g) ?? [] }).toEqual({
        path,
        codes: [],
      });
    }
    await close();
  });
});
