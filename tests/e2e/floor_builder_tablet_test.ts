// The store floor in a real browser: the builder on a desk screen and a tablet, the tablet
// after staff pick options, the client copy after a choice, and the lists at tablet width.
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  FLOOR_SIZES,
  PHONE,
  sizeName,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
  WIDE,
} from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { app, coveredBy, fiveOptionQuote, openForSizes, overlaps } from "./floor_fixture.ts";
import { printedPages, printPage, shoot, useFloorApp } from "./floor_fixture.ts";

useFloorApp();

describe("the builder on a desk screen and a tablet", () => {
  it("the staff bar is one row at 1280 and 1440, an admin's eight entries and one more", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of [{ width: 1280, height: 800 }, WIDE]) {
        const { page } = await sizes.at("/dashboard", viewport);
        // One more entry, as the Orders item other work adds.
        await page.evaluate(() => {
          const nav = document.querySelector(".mainnav")!;
          const extra = nav.lastElementChild!.cloneNode(true) as HTMLAnchorElement;
          extra.textContent = "Orders";
          extra.removeAttribute("aria-current");
          nav.insertBefore(extra, nav.children[3]);
        });
        const rows = await page.evaluate(() => {
          const bar = document.querySelector(".topbar")!.getBoundingClientRect();
          const parts = [...document.querySelectorAll(".topbar-inner > *, .mainnav > a")]
            .map((el) => el.getBoundingClientRect())
            .filter((b) => b.width > 0);
          return {
            height: Math.round(bar.height),
            tops: new Set(parts.map((b) => Math.round(b.top + b.height / 2))).size,
            overflow: document.documentElement.scrollWidth - innerWidth,
          };
        });
        console.log(`${sizeName(viewport)} staff bar: ${rows.height} px`);
        expect([sizeName(viewport), rows]).toEqual([sizeName(viewport), {
          height: rows.height,
          tops: 1,
          overflow: 0,
        }]);
        expect(rows.height).toBeLessThanOrEqual(62);
      }
    } finally {
      await sizes.close();
    }
  });

  it("the first option's editor on the first screen, actions without a scroll box, nothing under the bar", async () => {
    const id = await fiveOptionQuote();
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page, problems } = await sizes.at(`/quote/${id}`, viewport);
        const size = sizeName(viewport);
        const label = page.getByLabel("Option Label");
        const box = (await label.boundingBox())!;
        console.log(`${size} builder: Option Label at y=${Math.round(box.y)}`);
        if (viewport !== PHONE) {
          // On the first screen, and not covered by the save bar.
          expect([size, box.y + box.height <= viewport.height]).toEqual([size, true]);
          expect([size, await coveredBy(page, "#qb-option-panel input")]).toEqual([size, ""]);
        }
        // No scroll box of its own: every action is reached by scrolling the page.
        const side = await page.locator(".qb-side").evaluate((el) => ({
          overflowY: getComputedStyle(el).overflowY,
          clipped: el.scrollHeight - el.clientHeight,
        }));
        expect([size, side]).toEqual([size, { overflowY: "visible", clipped: 0 }]);
        for (
          const name of ["Internal Notes", "Hand to Client", "Close Quote", "Email Quote"]
        ) {
          const target = name === "Internal Notes"
            ? "#qb-internal-notes"
            : `.qb-side button:has-text("${name}")`;
          await page.locator(target).first().scrollIntoViewIfNeeded();
          expect([size, name, await coveredBy(page, target)]).toEqual([size, name, ""]);
        }
        // No sideways page scroll, with five options' tabs and their sr-only marks.
        expect([
          size,
          await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          ),
        ]).toEqual([size, 0]);
        // A strip wider than its card says so, and the hint scrolls it.
        const strip = page.locator(".qb-tabs");
        const overflows = await strip.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
        const more = page.getByRole("button", { name: "Show more options" });
        expect([size, await more.isVisible()]).toEqual([size, overflows]);
        if (overflows) {
          await strip.scrollIntoViewIfNeeded();
          await more.click();
          await page.waitForFunction(() => document.querySelector(".qb-tabs")!.scrollLeft > 0);
          await page.getByRole("button", { name: "Show earlier options" }).waitFor();
        }
        if (viewport === TABLET_LANDSCAPE || viewport === WIDE) {
          expect(await seriousA11yViolations(page)).toEqual([]);
        }
        await shoot(page, `builder-${size}`);
        expect(problems).toEqual([]);
      }
    } finally {
      await sizes.close();
    }
  });
});

describe("the tablet after staff picks, and the client copy after a choice", () => {
  it("nothing preselected, cards titled by label, totals clear of the Confirm bar, the toast clear of the headings", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of [WIDE, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE]) {
        const { quoteId: id } = await insertSavedQuote(app.db, {
          firstName: "Tess",
          options: [
            { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
            { label: "", sku: "OK-9102", price: "150.00" },
            { label: "Reading", sku: "ZZ-1000", price: "99.00" },
          ],
        });
        // Staff ticked two options for the internal print.
        await app.db.updateTable("quoteOptions").set({ isChosen: true })
          .where("quoteId", "=", id).where("position", "in", [0, 2]).execute();
        const { page, problems } = await sizes.at(`/tablet/${id}`, viewport);
        const size = sizeName(viewport);
        const toggles = page.getByRole("checkbox");
        expect(await toggles.evaluateAll((els) => els.map((e) => e.textContent))).toEqual([
          "Everyday",
          "Option 2",
          "Reading",
        ]);
        expect(await toggles.evaluateAll((els) => els.map((e) => e.getAttribute("aria-checked"))))
          .toEqual(["false", "false", "false"]);
        await page.getByText("No options selected yet").waitFor();
        // Every card's total in its head, clear of the bar, wherever the head is on screen.
        const heads = await page.locator(".tablet-card-total").evaluateAll((els) =>
          els.map((el) => {
            const box = el.getBoundingClientRect();
            const inView = box.bottom > 0 && box.top < innerHeight;
            const top = document.elementFromPoint(
              box.left + box.width / 2,
              box.top + box.height / 2,
            );
            // The card's toggle is stretched over the card (its hit area): only the bar counts.
            return { inView, covered: inView && !!top?.closest(".tablet-actions") };
          })
        );
        // (On a phone the bar takes two rows and some card is always under it while scrolling.)
        if (viewport !== PHONE) {
          expect([size, heads.filter((h) => h.covered).length]).toEqual([size, 0]);
        }
        expect(heads.some((h) => h.inView)).toBe(true);
        // At the end of the page the bar sits below the cards: no total row under it.
        await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
        const bar = (await page.locator(".tablet-actions").boundingBox())!;
        for (const row of await page.locator(".tablet-total").all()) {
          const box = await row.boundingBox();
          if (box) expect([size, overlaps(box, bar)]).toEqual([size, false]);
        }
        if (viewport === TABLET_LANDSCAPE) expect(await seriousA11yViolations(page)).toEqual([]);

        await page.locator(".tablet-card").filter({ hasText: "Reading" }).click();
        await page.getByRole("button", { name: "Confirm Selection(s)" }).click();
        const thanks = page.getByRole("heading", { name: "Thank You!" });
        await thanks.waitFor();
        const toast = page.locator(".toast").first();
        await toast.waitFor();
        const toastBox = (await toast.boundingBox())!;
        for (const heading of [thanks, page.getByRole("heading", { level: 1 })]) {
          const box = (await heading.boundingBox())!;
          expect([size, await heading.textContent(), overlaps(box, toastBox)]).toEqual([
            size,
            await heading.textContent(),
            false,
          ]);
        }
        await shoot(page, `tablet-confirmed-${size}`);
        expect(problems).toEqual([]);

        if (viewport === WIDE) {
          // Point 4: the client copy marks the choice and offers it alone.
          const print = await printPage(`/print/${id}`, WIDE);
          try {
            const sheets = print.page.locator(".print-copy-client .print-sheet");
            expect(await sheets.count()).toBe(3);
            const marked = await sheets.evaluateAll((els) =>
              els.map((el) => el.querySelector(".print-choice")?.textContent ?? "")
            );
            expect(marked).toEqual(["", "", "Your choice"]);
            const chosenOnly = print.page.getByRole("link", { name: "Print chosen only" });
            expect(await chosenOnly.isVisible()).toBe(true);
            await chosenOnly.click();
            await print.page.waitForURL(/chosen=only/);
            await print.page.waitForSelector("html[data-sheets-fitted=true]");
            const pages = await printedPages(print.page, "chosen-only");
            expect(pages.length).toBe(1);
            expect(pages[0]).toContain("Your choice");
            // The printed copy keeps staff's titles (the frame SKU first).
            expect(pages[0]).toContain("ZZ-1000");
            expect(pages[0]).toContain("Page 1 of 1");
          } finally {
            await print.close();
          }
        }
      }
    } finally {
      await sizes.close();
    }
  });
});

describe("the dashboard's lists at tablet width", () => {
  it("Recent Quotes give total, optician and date; the Expired card's rows line up", async () => {
    for (const days of [3, 40, 400]) {
      await insertSavedQuote(app.db, {
        firstName: `Expired${days}`,
        expiresAt: new Date(Date.now() - days * 86_400_000),
        options: [{ label: "One", sku: "S-1", price: days === 400 ? "12345.67" : "9.50" }],
      });
    }
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page } = await sizes.at("/dashboard", viewport);
        const size = sizeName(viewport);
        const recent = page.getByRole("region", { name: "Recent Quotes" }).locator(".quote-row");
        const first = await recent.first().textContent();
        expect(first).toContain("Dr. Hidden Opticianson");
        expect(first).toMatch(/\$[\d,]+\.\d\d/);
        expect(first).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
        for (const region of ["Recent Quotes", "Expired Quotes - Follow Up Needed"]) {
          const rows = page.getByRole("region", { name: region }).locator(".quote-row");
          const edges = await rows.evaluateAll((els) =>
            els.map((el) => {
              const total = el.querySelector(".quote-total")!.getBoundingClientRect();
              const badge = el.querySelector(".badge")!.getBoundingClientRect();
              return {
                total: Math.round(total.right),
                badge: Math.round(badge.right),
                overflow: el.scrollWidth - el.clientWidth,
              };
            })
          );
          expect(edges.length).toBeGreaterThan(1);
          expect([size, region, new Set(edges.map((e) => e.total)).size]).toEqual([
            size,
            region,
            1,
          ]);
          expect([size, region, new Set(edges.map((e) => e.badge)).size]).toEqual([
            size,
            region,
            1,
          ]);
          expect([size, region, edges.filter((e) => e.overflow > 0)]).toEqual([size, region, []]);
        }
        expect(
          await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          ),
        ).toBe(0);
        if (viewport === TABLET_LANDSCAPE) {
          expect(await seriousA11yViolations(page)).toEqual([]);
          await shoot(page, `dashboard-${size}`);
        }
      }
    } finally {
      await sizes.close();
    }
  });
});
