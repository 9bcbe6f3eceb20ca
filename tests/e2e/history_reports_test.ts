import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { expectCount, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import {
  expectedFor,
  insertReportQuotes,
  REPORT_RANGE,
  reportQuotes,
  weekOf,
} from "../helpers/report_seed.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, owner: string, admin: string, optician: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  const user = async (role: "OWNER" | "ADMIN" | "AUTHORIZED_USER", username: string) =>
    await sessionCookieFor(app.db, (await createTestUser(app.db, { role, username })).id);
  [owner, admin, optician] = await Promise.all([
    user("OWNER", "olivia_owner"),
    user("ADMIN", "adam_admin"),
    user("AUTHORIZED_USER", "oscar_optician"),
  ]);
});

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

const dialog = (page: Page) => page.locator("dialog[open]");

describe("History tabs", () => {
  it("the client dialog's History tab shows an edit made in the UI, field by field, old → new", async () => {
    const created = await call<CreatedClient>(app, "POST", "/api/clients", {
      body: { firstName: "Greta", lastName: "Gray", email: "greta@example.com", city: "Salem" },
      cookie: optician,
    });
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, optician);
    try {
      await page.goto("/clients");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("button", { name: "Edit Greta Gray" }).click();
      const edit = dialog(page);
      await edit.getByLabel("Email").fill("greta.gray@example.com");
      await edit.getByLabel("City").fill("Portland");
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await page.locator(".toast").getByText("Client updated successfully!").waitFor();
      await edit.waitFor({ state: "hidden" });

      await page.goto(`/clients?id=${created.body.client.id}`);
      await page.waitForSelector("html[data-hydrated=true]");
      const details = dialog(page);
      await details.getByRole("tab", { name: "Details" }).waitFor();
      await expect(details.getByRole("tab", { name: "Details" }).getAttribute("aria-selected"))
        .resolves.toBe("true");
      await details.getByRole("tab", { name: "History" }).click();
      const entry = details.locator(".history-item").first();
      await entry.getByText("Client details changed").waitFor();
      await entry.getByText("by oscar_optician").waitFor();
      await expect(entry.locator(".history-changes li").allTextContents()).resolves.toEqual([
        "Email: greta@example.com→greta.gray@example.com",
        "City: Salem→Portland",
      ]);
      await expect(details.locator(".history-item").nth(1).textContent()).resolves.toContain(
        "Client created",
      );
      // Arrow keys move between the tabs (WAI-ARIA tabs).
      await details.getByRole("tab", { name: "History" }).press("ArrowLeft");
      await expect(details.getByRole("tab", { name: "Details" }).getAttribute("aria-selected"))
        .resolves.toBe("true");
      await details.getByRole("heading", { name: "Contact Information" }).waitFor();
      await details.getByRole("tab", { name: "History" }).click();
      await entry.waitFor();
      await shoot(page, "client-history");
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the quote builder's History tab shows status changes, the option summary and each item of a save", async () => {
    const created = await call<CreatedClient>(app, "POST", "/api/clients", {
      body: { firstName: "Hugo", lastName: "Hill" },
      cookie: optician,
    });
    await call(app, "PUT", `/api/clients/${created.body.client.id}/measurements`, {
      body: { pdBinocular: "63", pdNear: "60", measurementsComplete: true },
      cookie: optician,
    });
    const quoteId = created.body.quote.id;
    const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${quoteId}`, {
      cookie: optician,
    })).body;
    await call(app, "PUT", `/api/quotes/${quoteId}`, {
      body: {
        version: bundle.quote.version,
        opticianName: "Oscar",
        internalNotes: "",
        options: [
          {
            id: bundle.options[0].id,
            items: [{ kind: "FRAME", name: "Frame", sku: "F-1", unitPrice: "120", qty: 1 }],
          },
          {
            id: "temp-2",
            items: [{ kind: "FRAME", name: "Frame", sku: "F-2", unitPrice: "80.50", qty: 1 }],
          },
        ],
      },
      cookie: optician,
    });
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, optician);
    try {
      await page.goto(`/quote/${quoteId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      // Finalize in the UI, then read the history.
      await page.getByRole("button", { name: "Finalize" }).click();
      await dialog(page).getByRole("button", { name: "Finalize" }).click();
      await page.getByTestId("quote-status").getByText("Finalized").waitFor();
      await page.getByRole("tab", { name: "History" }).click();
      await expect(page.getByRole("tab", { name: "History" }).getAttribute("aria-selected"))
        .resolves.toBe("true");
      await expect(page.locator(".qb-layout").isVisible()).resolves.toBe(false);
      const items = page.locator(".history-item");
      await items.first().getByText("Quote finalized").waitFor();
      await expect(items.first().locator(".history-changes").textContent()).resolves.toBe(
        "Status: Active→Finalized",
      );
      const save = items.filter({ hasText: "Quote saved (version 2)" });
      await expect(save.locator(".history-changes li").allTextContents()).resolves.toEqual([
        "Status: Draft→Active",
        "Optician: (empty)→Oscar",
        "Options: 1 added, 1 changed (2 options now)",
        'Option 1 · Frame "Frame" (F-1): added ($120.00 × 1)',
        "Option 2: added (total $80.50)",
        "Total: $0.00→$120.00",
      ]);
      await shoot(page, "quote-history");
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole("tab", { name: "Quote" }).click();
      await page.locator(".qb-layout").waitFor({ state: "visible" });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("Audit log page", () => {
  it("an owner filters by user and kind and pages older and newer, without JavaScript", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    try {
      await page.goto("/admin");
      await page.getByRole("link", { name: /Audit Log/ }).click();
      await page.waitForURL("**/admin/audit");
      await page.getByRole("heading", { name: "Audit Log", level: 1 }).waitFor();
      await page.getByLabel("User").selectOption({ label: "oscar_optician" });
      await page.getByLabel("Kind").selectOption({ label: "Clients" });
      await page.getByRole("button", { name: "Apply Filters" }).click();
      await page.waitForURL(/kind=client/);
      const rows = page.locator(".audit-table tbody tr");
      await expect(rows.count()).resolves.toBeGreaterThan(0);
      for (const who of await rows.locator("td:nth-child(2)").allTextContents()) {
        expect(who).toBe("oscar_optician");
      }
      await page.getByText("Email: greta@example.com→greta.gray@example.com").waitFor();
      await shoot(page, "audit-log");
      expect(await seriousA11yViolations(page)).toEqual([]);

      // 60 more entries: a second page, and back.
      const { sql } = await import("kysely");
      await sql`INSERT INTO audit_log (user_id, actor, action, entity_type, entity_id, details)
        SELECT NULL, 'system', 'settings.update', 'settings', g::text, '{}'::jsonb
        FROM generate_series(1, 60) AS g`.execute(app.db);
      await page.goto("/admin/audit?kind=settings");
      await expectCount(rows, 50);
      await page.getByRole("link", { name: "Older →" }).click();
      await expectCount(rows, 10);
      await expectCount(page.getByRole("link", { name: "Older →" }), 0);
      await page.getByRole("link", { name: "← Newer" }).click();
      await expectCount(rows, 50);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("admins and opticians get the unauthorized page and no link", async () => {
    for (const cookie of [admin, optician]) {
      const { page, close } = await openSignedIn(browser, app.baseUrl, cookie);
      try {
        const res = await page.goto("/admin/audit");
        expect(res?.status()).toBe(403);
        // The page says why (HTTP tests read its text), then sends the browser home.
        await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/dashboard");
      } finally {
        await close();
      }
    }
    const { page, close } = await openSignedIn(browser, app.baseUrl, admin);
    try {
      await page.goto("/admin");
      await expectCount(page.getByRole("link", { name: /Audit Log/ }), 0);
    } finally {
      await close();
    }
  });
});

describe("Conversion report page", () => {
  it("an admin reaches it from the staff bar; the numbers match the seeded store", async () => {
    const quotes = reportQuotes();
    await insertReportQuotes(app.db, quotes);
    const inRange = quotes.filter((q) =>
      q.createdAt >= new Date(2025, 0, 6) && q.createdAt < new Date(2025, 1, 3)
    );
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, admin);
    try {
      await page.goto("/dashboard");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" })
        .click();
      await page.waitForURL("**/reports");
      await page.getByRole("heading", { name: "Reports", exact: true }).waitFor();
      await page.getByLabel("From", { exact: true }).fill(REPORT_RANGE.from);
      await page.getByLabel("To", { exact: true }).fill(REPORT_RANGE.to);
      await page.getByRole("button", { name: "Show Report" }).click();
      await page.waitForURL(/from=2025-01-06/);
      const all = expectedFor(inRange, new Date());
      await expect(page.getByTestId("total-Created").textContent()).resolves.toBe(
        String(all.created),
      );
      await expect(page.getByTestId("total-Accepted").textContent()).resolves.toBe(
        String(all.accepted),
      );
      // The weekly table: one row per week with that week's created count.
      const weekRows = page.locator("#report-weeks-caption").locator("xpath=..")
        .locator("tbody tr");
      await expectCount(weekRows, 4);
      for (
        const [i, monday] of ["2025-01-06", "2025-01-13", "2025-01-20", "2025-01-27"].entries()
      ) {
        const own = inRange.filter((q) => weekOf(q.createdAt) === monday);
        await expect(weekRows.nth(i).locator("td").first().textContent()).resolves.toBe(
          String(own.length),
        );
      }
      await expectCount(page.locator("svg[role=img] rect.chart-bar"), 20);
      await shoot(page, "reports");
      expect(await seriousA11yViolations(page)).toEqual([]);

      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download CSV" }).click(),
      ]);
      expect(file.suggestedFilename()).toBe("conversion-2025-01-06-to-2025-02-02.csv");
      const text = await Deno.readTextFile(await file.path());
      const created = text.trimEnd().split("\r\n").slice(1)
        .reduce((s, l) => s + Number(l.split(",")[4]), 0);
      expect(created).toBe(all.created);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("prints the report alone: no e-mail banner, no filter form, no download link", async () => {
    // E-mail is not configured here, so an admin's pages carry the banner.
    const { page, close } = await openSignedIn(browser, app.baseUrl, admin);
    try {
      await page.goto(`/reports?from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`);
      await page.getByRole("region", { name: "Email configuration" }).waitFor();
      await page.getByRole("button", { name: "Show Report" }).waitFor();
      const file = await Deno.makeTempFile({ suffix: ".pdf" });
      try {
        await Deno.writeFile(file, await page.pdf({ printBackground: true }));
        const shot = screenshotPath("reports-print");
        if (shot) await Deno.copyFile(file, shot.replace(/\.png$/, ".pdf"));
        const out = await new Deno.Command("pdftotext", { args: [file, "-"] }).output();
        expect(out.success).toBe(true);
        const text = new TextDecoder().decode(out.stdout).replace(/\s+/g, " ");
        expect(text).toContain("Reports");
        expect(text).toContain("By Week");
        // The tables whole: their last column is on the sheet, not scrolled off it.
        expect(text).toContain("Avg. accepted value");
        for (const gone of ["Email is not configured", "Configure Email", "Show Report"]) {
          expect([gone, text.includes(gone)]).toEqual([gone, false]);
        }
        for (const gone of ["All opticians", "Download CSV"]) {
          expect([gone, text.includes(gone)]).toEqual([gone, false]);
        }
      } finally {
        await Deno.remove(file);
      }
    } finally {
      await close();
    }
  });

  it("opticians see no Reports entry and are refused the page", async () => {
    const { page, close } = await openSignedIn(browser, app.baseUrl, optician);
    try {
      await page.goto("/dashboard");
      await expectCount(
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }),
        0,
      );
      const res = await page.goto("/reports");
      expect(res?.status()).toBe(403);
      await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/dashboard");
    } finally {
      await close();
    }
  });
});
