// Client management in a browser: the list, its search and filters, and its layout.
import { describe, it } from "node:test";
import { expect } from "expect";
import { DESKTOP, expectCount, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { app, card, cardNames, cards, dialog, expectNames } from "./clients_fixture.ts";
import { horizontalOverflow, insertClient, insertQuote } from "./clients_fixture.ts";
import { insertTrio, openClients, shoot, useClientsApp } from "./clients_fixture.ts";

useClientsApp();

describe("client management: list, search and filter", () => {
  it("shows the empty states for an empty book, a search and the filter", async () => {
    const { page, problems } = await openClients();
    await expect(page.getByRole("heading", { name: "Client Management", level: 1 }).isVisible())
      .resolves.toBe(true);
    await page.getByText("No clients yet. Add your first client to get started.").waitFor();

    await page.getByRole("searchbox").fill("nobody");
    await page.getByText("No clients found matching your search.").waitFor();
    await page.getByRole("searchbox").fill("");
    await page.getByText("No clients yet. Add your first client to get started.").waitFor();

    await page.getByRole("button", { name: "Missing Measurements" }).click();
    await page.getByText("No clients found matching your search.").waitFor();
    await shoot(page, "clients-empty-filter-desktop");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("renders the first page on the server and shows each client's card", async () => {
    const { ann, bob } = await insertTrio();
    const { page, problems, apiCalls } = await openClients();
    // The first page came with the HTML: the island made no call to show it.
    expect(apiCalls).toEqual([]);
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);

    const annCard = card(page, "Ann Archer");
    await expect(annCard.textContent()).resolves.toContain("ann.archer@example.com");
    await expect(annCard.textContent()).resolves.toContain("(555) 010-2030");
    await expect(annCard.textContent()).resolves.toContain("12 Main St, Springfield, IL 62701");
    const created = new Date().toLocaleDateString("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
    });
    await expect(annCard.textContent()).resolves.toContain(created);
    await expect(annCard.locator(".badge").allTextContents()).resolves.toEqual([
      "Measurements Pending",
    ]);
    await expectCount(annCard.locator(".badge.badge-warning"), 1);
    await expect(card(page, "Bob Baker").locator(".badge.badge-secondary").textContent())
      .resolves.toBe("No Measurements");
    await expectCount(card(page, "Cara Cole").locator(".badge"), 0);
    // Actions carry the client's name for screen readers.
    await expect(annCard.getByRole("button", { name: "Edit Ann Archer" }).isVisible()).resolves
      .toBe(true);
    expect(ann).not.toBe(bob);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("searches by name, e-mail and phone digits, debounced, and clears back to the list", async () => {
    await insertTrio();
    const { page, problems, apiCalls } = await openClients();
    const search = page.getByRole("searchbox", { name: "Search clients by name, email or phone" });

    await search.pressSequentially("arch", { delay: 40 });
    await expectNames(page, ["Ann Archer"]);
    // One call for the whole word: typing is debounced.
    expect(apiCalls.filter((c) => c.startsWith("GET /api/clients/search"))).toEqual([
      "GET /api/clients/search?q=arch&limit=50&offset=0",
    ]);

    await search.fill("5550102");
    await expectNames(page, ["Ann Archer"]);
    await search.fill("777 1234");
    await expectNames(page, ["Bob Baker"]);
    await search.fill("BOB@EXAMPLE");
    await expectNames(page, ["Bob Baker"]);
    await search.fill("example.com");
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);

    await search.fill("");
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("filters to missing measurements, keeps ?filter=missing in the URL, and clears it", async () => {
    await insertTrio();
    const { page, problems } = await openClients();
    const filter = page.getByRole("button", { name: "Missing Measurements" });
    await expect(filter.getAttribute("aria-pressed")).resolves.toBe("false");
    await expectCount(page.getByRole("button", { name: "Clear Filter" }), 0);

    await filter.click();
    await expectNames(page, ["Ann Archer", "Bob Baker"]);
    expect(new URL(page.url()).search).toBe("?filter=missing");
    await expect(filter.getAttribute("aria-pressed")).resolves.toBe("true");

    await page.getByRole("button", { name: "Clear Filter" }).click();
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);
    expect(new URL(page.url()).search).toBe("");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("honours ?filter=missing on load, with the filtered page rendered by the server", async () => {
    await insertTrio();
    const { page, problems, apiCalls } = await openClients("/clients?filter=missing");
    expect(apiCalls).toEqual([]);
    await expectNames(page, ["Ann Archer", "Bob Baker"]);
    await expect(
      page.getByRole("button", { name: "Missing Measurements" }).getAttribute("aria-pressed"),
    ).resolves.toBe("true");
    await page.getByRole("button", { name: "Clear Filter" }).click();
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows dates in the browser's time zone without a hydration mismatch", async () => {
    // 23:30 UTC on 1 March is already 2 March in Auckland.
    await insertClient({
      firstName: "Zed",
      lastName: "Zone",
      createdAt: new Date("2025-03-01T23:30:00Z"),
    });
    const { page, problems } = await openClients("/clients", DESKTOP, "Pacific/Auckland");
    await expect(card(page, "Zed Zone").locator("time").textContent()).resolves.toBe(
      "Mar 2, 2025",
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("pages through more than 50 clients with Load more", async () => {
    const base = Date.now();
    await app.db.insertInto("clients").values(
      Array.from({ length: 57 }, (_, i) => ({
        firstName: "Client",
        lastName: `Number${String(i + 1).padStart(2, "0")}`,
        createdAt: new Date(base - i * 1000),
      })),
    ).execute();
    const { page, problems, apiCalls } = await openClients();
    await expectCount(cards(page), 50);
    await expect(page.getByRole("status").filter({ hasText: "Showing" }).textContent()).resolves
      .toBe("Showing 50+ clients");
    const loadMore = page.getByRole("button", { name: "Load more" });
    await loadMore.click();
    await page.waitForFunction(() => document.querySelectorAll(".client-card").length === 57);
    expect(apiCalls).toEqual(["GET /api/clients?limit=50&offset=50"]);
    await expectCount(loadMore, 0);
    const names = await cardNames(page);
    expect(names[0]).toBe("Client Number01");
    expect(names[56]).toBe("Client Number57");
    expect(new Set(names).size).toBe(57);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("client management: layout", () => {
  for (const [label, viewport] of [["desktop", DESKTOP], ["tablet", TABLET_PORTRAIT]] as const) {
    it(`fits ${viewport.width}×${viewport.height} with list, details and edit dialogs`, async () => {
      const { ann } = await insertTrio();
      await insertQuote(ann, "DRAFT");
      await insertQuote(ann, "CLOSED", new Date(Date.now() - 3_600_000));
      const { page, problems } = await openClients("/clients", viewport);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shoot(page, `clients-list-${label}`);

      await page.getByRole("button", { name: "Ann Archer", exact: true }).click();
      const details = dialog(page, "Ann Archer");
      await details.getByRole("heading", { name: "Quotes" }).waitFor();
      const box = await details.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      await shoot(page, `clients-detail-${label}`);
      await details.getByRole("button", { name: "Edit Measurements" }).click();
      await shoot(page, `clients-measurements-${label}`);
      await page.keyboard.press("Escape");

      await card(page, "Ann Archer").getByRole("button", { name: "Edit Ann Archer" }).click();
      await dialog(page, "Edit Client").getByLabel("First Name").waitFor();
      await shoot(page, `clients-edit-${label}`);
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Add New Client" }).click();
      await dialog(page, "Add New Client").getByLabel("First Name").waitFor();
      await shoot(page, `clients-add-${label}`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
