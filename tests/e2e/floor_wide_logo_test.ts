// A wide logo keeps its aspect ratio in a bounded box wherever it shows, the
// same on screen, on paper and in the PDF, at the four sizes the store uses.
// Fitted into the staff bar's 32 px square, a 360 × 100 PNG wordmark would be
// drawn 32 × 9 px; paper and the PDF must agree on its size, and the kiosk
// intake shows it too.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import {
  call,
  kioskCookieFor,
  signedInUser,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import {
  DESKTOP,
  FLOOR_SIZES,
  openPage,
  screenshotPath,
  sizeName,
  TABLET_LANDSCAPE,
  WIDE,
} from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { realPng, setBrandingImage } from "../helpers/images.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { pdfImages } from "../helpers/printed.ts";
import { fitLogo, LOGO_BOXES, type LogoPlace } from "../../src/print/logo_box.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";
import { useBrowserApp } from "../helpers/suite.ts";

/** The wordmark: 3.6 times as wide as it is high. */
const LOGO = { width: 360, height: 100 };

let app: TestApp;
let browser: Browser;
let owner: TestUser;
let ownerCookie: string;
let quoteId: string;
let logoUrl: string;
let orderId: string;
/** The token of an online link to the quote, as the client's e-mail holds it. */
let onlineToken: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  ({ user: owner, cookie: ownerCookie } = await signedInUser(app.db, {
    username: "wanda",
    firstName: "Wanda",
    role: "OWNER",
  }));
  logoUrl = await setBrandingImage(
    app,
    ownerCookie,
    "logo",
    realPng(LOGO.width, LOGO.height),
    "image/png",
  );
  ({ quoteId } = await insertSavedQuote(app.db));
  const { version } = await app.db.selectFrom("quotes").select("version")
    .where("id", "=", quoteId).executeTakeFirstOrThrow();
  onlineToken = await createQuoteLink(app.db, {
    quoteId,
    quoteVersion: version,
    sentTo: "client@example.com",
    createdBy: owner.id,
  });
  // An order, for its work order and receipt.
  const lab = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
    cookie: ownerCookie,
    body: { name: "Lakeside Lab", phone: "555-0100", turnaroundDays: 5 },
  });
  const ordered = await insertSavedQuote(app.db, { status: "FINALIZED" });
  await app.db.updateTable("quoteOptions").set({ isChosen: true })
    .where("id", "=", ordered.optionIds[0]).execute();
  const made = await call<OrderBundle>(app, "POST", `/api/quotes/${ordered.quoteId}/order`, {
    cookie: ownerCookie,
    body: { labId: lab.body.id },
  });
  if (made.status !== 201) throw new Error(`order: ${made.status} ${made.text}`);
  orderId = made.body.order.id;
});

type Holder = "staff" | "signed out" | "kiosk";

/** A page (in a context of its own) as `holder` sees the app: staff, signed out, or a kiosk. */
async function openAs(viewport: { width: number; height: number }, holder: Holder) {
  const session = await openPage(browser, app.baseUrl, {
    viewport,
    cookie: holder === "staff" ? ownerCookie : undefined,
    timeout: 60_000,
  });
  if (holder === "kiosk") {
    const [name, value] = (await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: owner.id }))
      .split("=");
    await session.page.context().addCookies([{
      name,
      value,
      url: app.baseUrl,
      sameSite: "Strict",
    }]);
  }
  return session;
}

async function open(path: string, viewport: { width: number; height: number }, holder: Holder) {
  const session = await openAs(viewport, holder);
  await session.page.goto(path);
  return session;
}

/** The logo's box as laid out, once its image has loaded (a broken image has no ratio). */
async function logoBox(page: Page, selector: string) {
  await page.waitForFunction((sel) => {
    const img = document.querySelector<HTMLImageElement>(sel);
    return !!img && img.complete && img.naturalWidth > 0;
  }, selector);
  return await page.locator(selector).first().evaluate((img) => {
    const box = img.getBoundingClientRect();
    return { width: box.width, height: box.height };
  });
}

/** The box is the wordmark fitted into its place's box: as wide as 3.6 × its height. */
function expectFitted(where: string, box: { width: number; height: number }, place: LogoPlace) {
  const want = fitLogo(LOGO, LOGO_BOXES[place]);
  console.log(`${where}: ${box.width.toFixed(1)} × ${box.height.toFixed(1)} px`);
  expect([where, Math.round(box.width), Math.round(box.height)]).toEqual([
    where,
    Math.round(want.width),
    Math.round(want.height),
  ]);
  expect([where, Math.round((box.width / box.height) * 100) / 100]).toEqual([where, 3.6]);
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(`wide-logo-${name}`);
  if (path) await page.screenshot({ path, fullPage: true });
}

/** The wordmark as drawn in a PDF: inches wide and high, from its pixels and ppi. */
async function drawnInPdf(bytes: Uint8Array) {
  const images = (await pdfImages(bytes)).filter((i) =>
    i.width === LOGO.width && i.height === LOGO.height
  );
  expect(images.length).toBeGreaterThan(0);
  return images.map((i) => ({
    page: i.page,
    inches: `${(i.width / i.xPpi).toFixed(2)} × ${(i.height / i.yPpi).toFixed(2)}`,
  }));
}

describe("a wide logo in a bounded box", () => {
  // Where each logo is, whose page shows it, and the box it must fit (one row a place).
  const rows: [string, () => string, Holder, string, LogoPlace][] = [
    ["staff bar", () => "/dashboard", "staff", "img.brand-logo", "staffBar"],
    ["kiosk intake", () => "/intake", "kiosk", "img.intake-logo", "kiosk"],
    ["signed-out intake", () => "/intake", "signed out", "img.intake-logo", "kiosk"],
    ["landing", () => "/", "signed out", "img.landing-logo", "landing"],
    ["sign-in", () => "/staff", "signed out", "img.auth-logo", "signIn"],
    ["tablet", () => `/tablet/${quoteId}`, "staff", "img.tablet-logo", "kiosk"],
    ["online quote", () => `/q/${onlineToken}`, "signed out", "img.online-logo", "online"],
    [
      "client copy",
      () => `/print/${quoteId}?noprint=1`,
      "staff",
      "#print-copy-client img.print-logo",
      "sheet",
    ],
    [
      "internal copy",
      () => `/print/${quoteId}?copy=internal&noprint=1`,
      "staff",
      "#print-copy-internal img.print-logo",
      "internalSheet",
    ],
    [
      "work order",
      () => `/orders/${orderId}/work-order`,
      "staff",
      ".print-sheet-work-order img.print-logo",
      "sheet",
    ],
    [
      "receipt",
      () => `/orders/${orderId}/receipt`,
      "staff",
      ".receipt-sheet img.print-logo",
      "sheet",
    ],
  ];
  const places = rows.map(([name, path, holder, selector, place]) => ({
    name,
    path,
    holder,
    selector,
    place,
  }));

  for (const viewport of FLOOR_SIZES) {
    it(`at ${sizeName(viewport)}: the staff bar, the kiosk intake, sign-in, tablet, online quote, print and order sheets`, async () => {
      // One page for each holder at this size, going from place to place as a
      // person would (a fresh context for each of the 11 places cost a
      // browser context, a renderer and every asset fetched and compiled
      // anew): the holders' pages are independent, so they go side by side.
      const holders: Holder[] = ["staff", "signed out", "kiosk"];
      await Promise.all(holders.map(async (holder) => {
        const { page, problems, close } = await openAs(viewport, holder);
        try {
          for (const { name, path, selector, place } of places.filter((p) => p.holder === holder)) {
            const where = `${sizeName(viewport)} ${name}`;
            await page.goto(path());
            expectFitted(where, await logoBox(page, selector), place);
            // The wider logo widens no screen page (a print page is the paper's width).
            if (!["/print/", "/orders/"].some((p) => path().startsWith(p))) {
              expect([
                where,
                await page.evaluate(() =>
                  document.documentElement.scrollWidth - document.documentElement.clientWidth
                ),
              ]).toEqual([where, 0]);
            }
            expect([where, problems]).toEqual([where, []]);
          }
        } finally {
          await close();
        }
      }));
      // Every place was visited by one holder or another.
      expect(places.filter((p) => !holders.includes(p.holder))).toEqual([]);
    });
  }

  it("the staff bar stays one row at 1280 and 1440 with the wide logo", async () => {
    for (const viewport of [DESKTOP, WIDE]) {
      const { page, close } = await open("/dashboard", viewport, "staff");
      try {
        await logoBox(page, "img.brand-logo");
        const bar = await page.evaluate(() => {
          const parts = [...document.querySelectorAll(".topbar-inner > *, .mainnav > a")]
            .map((el) => el.getBoundingClientRect())
            .filter((b) => b.width > 0);
          return {
            height: Math.round(document.querySelector(".topbar")!.getBoundingClientRect().height),
            rows: new Set(parts.map((b) => Math.round(b.top + b.height / 2))).size,
          };
        });
        console.log(`${sizeName(viewport)} staff bar with the wordmark: ${bar.height} px`);
        expect([sizeName(viewport), bar.rows]).toEqual([sizeName(viewport), 1]);
        expect(bar.height).toBeLessThanOrEqual(62);
      } finally {
        await close();
      }
    }
  });

  it("the kiosk intake's logo is in the page's HTML (no script draws it), and axe finds nothing", async () => {
    const res = await fetch(`${app.baseUrl}/intake`);
    const html = await res.text();
    expect(html).toContain(`<img src="${logoUrl}" alt="" class="kiosk-logo intake-logo"/>`);
    const { page, close } = await open("/intake", TABLET_LANDSCAPE, "kiosk");
    try {
      await page.waitForSelector("html[data-hydrated=true]");
      await logoBox(page, "img.intake-logo");
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shoot(page, "kiosk-intake-1024");
    } finally {
      await close();
    }
  });

  it("paper and the PDFs draw it the same size, 1.8 × 0.5 inches, its ratio kept", async () => {
    const want = fitLogo(LOGO, LOGO_BOXES.sheet);
    const inches = `${(want.width / 96).toFixed(2)} × ${(want.height / 96).toFixed(2)}`;
    expect(inches).toBe("1.80 × 0.50");

    // The print page as printed: print media, the browser's own PDF.
    const { page, close } = await open(`/print/${quoteId}?noprint=1`, TABLET_LANDSCAPE, "staff");
    try {
      await page.waitForSelector("html[data-hydrated=true]");
      await page.emulateMedia({ media: "print" });
      expectFitted(
        "printed client copy",
        await logoBox(page, "#print-copy-client img.print-logo"),
        "sheet",
      );
      const printed = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      const onPaper = await drawnInPdf(printed);
      console.log(`printed: ${JSON.stringify(onPaper)}`);
      expect(onPaper.map((i) => i.inches)).toEqual(onPaper.map(() => inches));
    } finally {
      await close();
    }

    // The quote PDF the app makes (react-pdf), one page an option.
    const res = await fetch(`${app.baseUrl}/api/quotes/${quoteId}/pdf`, {
      headers: { cookie: ownerCookie },
    });
    expect(res.status).toBe(200);
    const pdf = await drawnInPdf(new Uint8Array(await res.arrayBuffer()));
    console.log(`PDF: ${JSON.stringify(pdf)}`);
    expect(pdf.map((i) => i.page)).toEqual([1, 2]);
    expect(pdf.map((i) => i.inches)).toEqual([inches, inches]);

    // The work order PDF (what the lab is e-mailed) heads its page as the printed sheet does.
    const order = await fetch(`${app.baseUrl}/api/orders/${orderId}/work-order.pdf`, {
      headers: { cookie: ownerCookie },
    });
    expect(order.status).toBe(200);
    const sheet = await drawnInPdf(new Uint8Array(await order.arrayBuffer()));
    console.log(`work order PDF: ${JSON.stringify(sheet)}`);
    expect(sheet).toEqual([{ page: 1, inches }]);
  });
});
