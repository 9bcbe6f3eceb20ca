import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Locator, Page } from "playwright-core";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import {
  DESKTOP,
  expectCount,
  openSignedIn,
  screenshotPath,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { UNAUTHORIZED_CATALOG_TEXT } from "../../routes/pages/admin_catalog.tsx";
import { CATALOG_ADMIN_SECTIONS } from "../../components/catalog_admin/sections.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, owner: string, optician: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await ensureDefaultCatalog(app.db);
  const cookie = async (role: "OWNER" | "AUTHORIZED_USER") =>
    sessionCookieFor(app.db, (await createTestUser(app.db, { role })).id);
  [owner, optician] = await Promise.all([cookie("OWNER"), cookie("AUTHORIZED_USER")]);
});

/** A signed-in page that records page errors and console errors. */
const open = (cookie: string, viewport = DESKTOP) =>
  openSignedIn(browser, app.baseUrl, cookie, viewport);

async function openAdmin(cookie: string, path: string, viewport = DESKTOP) {
  const opened = await open(cookie, viewport);
  const res = await opened.page.goto(path);
  expect(res?.status()).toBe(200);
  await opened.page.waitForSelector("html[data-hydrated=true]");
  return opened;
}

const toast = (page: Page) => page.locator(".toast");
const dialog = (page: Page) => page.locator("dialog[open]");
const row = (page: Page, name: string): Locator =>
  page.locator(".catalog-table tbody tr").filter({
    has: page.getByRole("rowheader", { name, exact: true }),
  });

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

async function publicMaterials(): Promise<string[]> {
  const res = await call<{ name: string }[]>(app, "GET", "/api/catalog/materials", {
    cookie: owner,
  });
  expect(res.status).toBe(200);
  return res.body.map((i) => i.name);
}

describe("Admin catalog", () => {
  it("an owner adds, edits, deactivates and deletes a material", async () => {
    const { page, problems, close } = await openAdmin(owner, "/admin/materials");
    try {
      await page.getByRole("heading", { name: "Materials", level: 2 }).waitFor();
      await shoot(page, "catalog-materials-desktop");

      // Add: blank name and price are refused with the spec's messages, no call made.
      await page.getByRole("button", { name: "Add Material" }).click();
      const form = dialog(page);
      await form.getByRole("heading", { name: "Add Material" }).waitFor();
      await expect(form.getByLabel("Sort Order").inputValue()).resolves.toBe("0");
      await expectCount(form.getByLabel("Description"), 0);
      await form.getByRole("button", { name: "Add Material" }).click();
      await form.getByText("Name is required", { exact: true }).waitFor();
      await form.getByText("Price is required", { exact: true }).waitFor();
      await expect(form.getByLabel("Name").getAttribute("aria-invalid")).resolves.toBe("true");
      await shoot(page, "catalog-add-errors-desktop");

      await form.getByLabel("Name").fill("Trivex Test");
      await form.getByText("Name is required", { exact: true }).waitFor({ state: "detached" });
      await form.getByLabel("Price ($)").fill("89.5");
      await form.getByLabel("Sort Order").fill("7");
      await form.getByRole("button", { name: "Add Material" }).click();
      await toast(page).getByText("Material Created", { exact: true }).waitFor();
      await expectCount(dialog(page), 0);
      const added = row(page, "Trivex Test");
      await added.waitFor();
      await added.getByRole("cell", { name: "$89.50", exact: true }).waitFor();
      await expectCount(added.getByRole("cell", { name: "7", exact: true }), 1);
      expect(await publicMaterials()).toContain("Trivex Test");

      // Edit the price.
      await added.getByRole("button", { name: "Edit Trivex Test" }).click();
      await dialog(page).getByRole("heading", { name: "Edit Material" }).waitFor();
      await expect(dialog(page).getByLabel("Price ($)").inputValue()).resolves.toBe("89.50");
      await dialog(page).getByLabel("Price ($)").fill("");
      await dialog(page).getByRole("button", { name: "Save Changes" }).click();
      await dialog(page).getByText("Price is required", { exact: true }).waitFor();
      await dialog(page).getByLabel("Price ($)").fill("99");
      await dialog(page).getByRole("button", { name: "Save Changes" }).click();
      await toast(page).getByText("Material Updated", { exact: true }).waitFor();
      await row(page, "Trivex Test").getByRole("cell", { name: "$99.00", exact: true }).waitFor();
      const stored = await app.db.selectFrom("materials").select(["price", "sortOrder"])
        .where("name", "=", "Trivex Test").executeTakeFirstOrThrow();
      expect(Number(stored.price)).toBe(99);
      expect(stored.sortOrder).toBe(7);

      // The badge is a real button that toggles the item.
      await row(page, "Trivex Test").getByRole("button", { name: "Active", exact: true }).click();
      await toast(page).getByText("Material Deactivated", { exact: true }).waitFor();
      await row(page, "Trivex Test").getByRole("button", { name: "Inactive", exact: true })
        .waitFor();
      // No Deactivate button on an inactive item.
      await expectCount(
        row(page, "Trivex Test").getByRole("button", { name: "Deactivate Trivex Test" }),
        0,
      );
      expect(await publicMaterials()).not.toContain("Trivex Test");
      await shoot(page, "catalog-inactive-desktop");

      // Back on with the badge, off with the Deactivate button.
      await row(page, "Trivex Test").getByRole("button", { name: "Inactive", exact: true })
        .click();
      await row(page, "Trivex Test").getByRole("button", { name: "Active", exact: true }).waitFor();
      expect(await publicMaterials()).toContain("Trivex Test");
      await row(page, "Trivex Test").getByRole("button", { name: "Deactivate Trivex Test" })
        .click();
      await row(page, "Trivex Test").getByRole("button", { name: "Inactive", exact: true })
        .waitFor();
      expect(await publicMaterials()).not.toContain("Trivex Test");

      // Delete asks for the name; a wrong one is refused.
      await row(page, "Trivex Test").getByRole("button", { name: "Delete Trivex Test" }).click();
      const confirm = dialog(page);
      await confirm.getByRole("heading", { name: "Delete Material" }).waitFor();
      await confirm.getByLabel("Type Trivex Test to confirm").fill("Trivex");
      await confirm.getByRole("button", { name: "Delete", exact: true }).click();
      await confirm.getByText(
        'The material name does not match. Please type "Trivex Test" exactly.',
        { exact: true },
      ).waitFor();
      await shoot(page, "catalog-delete-mismatch-desktop");
      await expectCount(row(page, "Trivex Test"), 1);
      // Surrounding spaces are trimmed.
      await confirm.getByLabel("Type Trivex Test to confirm").fill("  Trivex Test ");
      await confirm.getByRole("button", { name: "Delete", exact: true }).click();
      await toast(page).getByText("Material Deleted", { exact: true }).waitFor();
      await row(page, "Trivex Test").waitFor({ state: "detached" });
      const left = await app.db.selectFrom("materials").select("id")
        .where("name", "=", "Trivex Test").execute();
      expect(left).toEqual([]);

      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("shows packages with descriptions on /admin and navigates the sidebar", async () => {
    const { page, problems, close } = await openAdmin(owner, "/admin");
    try {
      await page.getByRole("heading", { name: "Lens Packages", level: 2 }).waitFor();
      const nav = page.getByRole("navigation", { name: "Catalog sections" });
      await expectCount(nav.getByRole("link"), 5);
      await expect(nav.getByRole("link", { name: "Lens Packages" }).getAttribute("aria-current"))
        .resolves.toBe("page");
      await expect(page.getByRole("columnheader", { name: "Description" }).count()).resolves
        .toBe(1);
      await expect(page.getByText("Single vision CR-39 plastic lenses", { exact: false }).count())
        .resolves.toBe(1);
      const sidebar = page.locator(".catalog-admin-sidebar");
      await expect(sidebar.getByRole("link", { name: /User Management/ }).getAttribute("href"))
        .resolves.toBe("/admin/users");
      await expect(sidebar.getByRole("link", { name: /Settings/ }).getAttribute("href")).resolves
        .toBe("/admin/settings");

      // The package form has a description.
      await page.getByRole("button", { name: "Add Lens Package" }).click();
      await dialog(page).getByLabel("Description").waitFor();
      await shoot(page, "catalog-package-form-desktop");
      await dialog(page).getByRole("button", { name: "Cancel" }).click();
      await expectCount(dialog(page), 0);

      // CSV: export is a download link, import opens its dialog (tests/e2e/catalog_csv_test.ts).
      await expect(page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).resolves
        .toBe("/api/admin/packages/export.csv");
      await page.getByRole("button", { name: "Import CSV" }).click();
      await dialog(page).getByRole("heading", { name: "Import Lens Packages from CSV" }).waitFor();
      await dialog(page).getByRole("button", { name: "Cancel" }).click();
      await expectCount(dialog(page), 0);

      for (const section of CATALOG_ADMIN_SECTIONS.slice(1)) {
        await nav.getByRole("link", { name: section.label, exact: true }).click();
        await page.waitForURL(`**/admin/${section.key}`);
        await page.waitForSelector("html[data-hydrated=true]");
        await page.getByRole("heading", { name: section.label, level: 2 }).waitFor();
        await expect(
          nav.getByRole("link", { name: section.label, exact: true }).getAttribute("aria-current"),
        ).resolves.toBe("page");
        await expect(page.getByRole("columnheader", { name: "Description" }).count()).resolves
          .toBe(0);
        await expect(page.locator(".catalog-table tbody tr").count()).resolves.toBeGreaterThan(0);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("looks right on a portrait tablet", async () => {
    const { page, problems, close } = await openAdmin(owner, "/admin/packages", TABLET_PORTRAIT);
    try {
      await page.getByRole("heading", { name: "Lens Packages", level: 2 }).waitFor();
      // Nothing forces the page to scroll sideways.
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, "catalog-packages-tablet");
      await page.getByRole("button", { name: "Add Lens Package" }).click();
      await dialog(page).getByLabel("Name").waitFor();
      await shoot(page, "catalog-package-form-tablet");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("answers an unknown section with the 404 page and leaves other admin pages alone", async () => {
    const res = await call(app, "GET", "/admin/frames", { cookie: owner });
    expect(res.status).toBe(404);
    expect(res.text).toContain("404 Page Not Found");
    const users = await call(app, "GET", "/admin/users", { cookie: owner });
    expect(users.status).toBe(200);
  });

  it("turns an authorized user away with a 403 and sends them home", async () => {
    for (const path of ["/admin", "/admin/materials"]) {
      const res = await call(app, "GET", path, { cookie: optician });
      expect(res.status).toBe(403);
      expect(res.text).toContain(UNAUTHORIZED_CATALOG_TEXT);
      expect(res.text).toContain('setTimeout(function(){location.replace("/")},500)');
    }
    const { page, close } = await open(optician);
    try {
      const res = await page.goto("/admin");
      expect(res?.status()).toBe(403);
      await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/dashboard");
    } finally {
      await close();
    }
  });
});
