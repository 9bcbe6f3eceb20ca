import { describe, it } from "node:test";
import { expect } from "expect";
import { Buffer } from "node:buffer";
import type { Browser, Page } from "playwright-core";
import { createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { expectCount, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { listCatalogForAdmin } from "../../src/catalog/catalog_admin.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, owner: string, optician: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await ensureDefaultCatalog(app.db);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  optician = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
});

const dialog = (page: Page) => page.locator("dialog[open]");

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

/** Clicks Export CSV and reads the downloaded file, byte order mark included. */
async function download(page: Page): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  const path = await file.path();
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await Deno.readFile(path));
  return { name: file.suggestedFilename(), text };
}

async function pick(page: Page, name: string, text: string) {
  await dialog(page).getByLabel("CSV file (up to 5 MB)").setInputFiles({
    name,
    mimeType: "text/csv",
    buffer: Buffer.from(text, "utf-8"),
  });
}

describe("catalog CSV in the browser", () => {
  it("an owner exports, edits a price in the file, previews, imports, and exports the same file", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    try {
      await page.goto("/admin/materials");
      await page.waitForSelector("html[data-hydrated=true]");
      const first = await download(page);
      expect(first.name).toMatch(/^materials-\d{4}-\d{2}-\d{2}\.csv$/);
      const items = await listCatalogForAdmin(app.db, "materials");
      const target = items[1];
      const line = first.text.split("\r\n").find((l) => l.startsWith(target.id))!;
      const edited = first.text.replace(line, line.replace(`,${target.price},`, ",123.45,"));
      expect(edited).not.toBe(first.text);

      await page.getByRole("button", { name: "Import CSV" }).click();
      const d = dialog(page);
      await d.getByRole("heading", { name: "Import Materials from CSV" }).waitFor();
      await pick(page, "materials.csv", edited);
      await d.getByRole("button", { name: "Preview" }).click();
      await d.getByText(`0 new, 1 changed, ${items.length - 1} unchanged, 0 invalid.`).waitFor();
      const changedRow = d.locator("tbody tr").first();
      await changedRow.getByText("Changed", { exact: true }).waitFor();
      await changedRow.getByText(`Price: $${target.price} → $123.45`).waitFor();
      await shoot(page, "catalog-csv-preview");
      expect(await seriousA11yViolations(page)).toEqual([]);

      await d.getByRole("button", { name: "Import 1 Change" }).click();
      await page.locator(".toast").getByText("Materials: 0 added, 1 changed.").waitFor();
      await expectCount(d, 0);
      await page.locator(".catalog-table tbody tr").filter({ hasText: target.name })
        .getByRole("cell", { name: "$123.45", exact: true }).waitFor();

      const second = await download(page);
      expect(second.text).toBe(edited);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("invalid rows are listed with their reasons and cannot be imported; nothing changes", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    try {
      await page.goto("/admin/add-ons");
      await page.waitForSelector("html[data-hydrated=true]");
      const before = await listCatalogForAdmin(app.db, "addOns");
      await page.getByRole("button", { name: "Import CSV" }).click();
      const d = dialog(page);
      await pick(
        page,
        "bad.csv",
        "name,price,active\r\nTint,abc,true\r\nCase,5.00,maybe\r\nCloth,2",
      );
      await d.getByRole("button", { name: "Preview" }).click();
      await d.getByText("0 new, 0 changed, 0 unchanged, 3 invalid.").waitFor();
      await d.getByText("Price must be a number like 129.00").waitFor();
      await d.getByText("Active must be true or false").waitFor();
      await d.getByText("Has 2 cells; the header row has 3").waitFor();
      await expect(d.getByRole("button", { name: /Import/ }).isDisabled()).resolves.toBe(true);
      await shoot(page, "catalog-csv-invalid");

      // A file that is not CSV at all: a clear message under the file field.
      await pick(page, "bad-header.csv", "title,cost\r\nA,1");
      await d.getByRole("button", { name: "Preview" }).click();
      await d.getByRole("alert").getByText('Unknown column "title" in the header row.').waitFor();

      // Over 5 MB is refused before anything is sent.
      await pick(page, "huge.csv", "name,price\r\n" + "x".repeat(5 * 1024 * 1024));
      await d.getByRole("alert")
        .getByText("The file is larger than 5 MB. Split it into smaller files and import each.")
        .waitFor();
      expect(await listCatalogForAdmin(app.db, "addOns")).toEqual(before);
      expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
    } finally {
      await close();
    }
  });

  it("opticians cannot reach the CSV routes", async () => {
    const { page, close } = await openSignedIn(browser, app.baseUrl, optician);
    try {
      for (const path of ["export.csv", "template.csv"]) {
        const res = await page.request.get(`/api/admin/materials/${path}`);
        expect(res.status()).toBe(403);
      }
      const res = await page.request.post("/api/admin/materials/import", {
        headers: { "content-type": "text/csv" },
        data: "name,price\nA,1",
      });
      expect(res.status()).toBe(403);
    } finally {
      await close();
    }
  });
});
