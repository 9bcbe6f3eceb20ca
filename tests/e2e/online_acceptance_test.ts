// Online acceptance end to end, in Chromium at a phone's size: the client opens the
// link from the e-mail a loopback SMTP server received, picks an option,
// signs with touch events on the pad, accepts, and the quote is FINALIZED
// with the signature; the link is then spent (410 page). A keyboard-only
// client signs with the typed name. axe on the page and the 410 page.
import { describe, it } from "node:test";
import { everydayAndSport } from "../helpers/quote_fixture.ts";
import { expect } from "expect";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { call, type TestApp, waitUntil } from "../helpers/test_app.ts";
import {
  DESKTOP,
  openSignedIn,
  PHONE,
  screenshotPath,
  smallTapTargets,
} from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { onlineLinkIn, storeWithMail } from "../helpers/online_link.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useBrowserApp } from "../helpers/suite.ts";

/** The text of a PDF, as pdftotext reads it. */
async function pdfText(pdf: Uint8Array): Promise<string> {
  const child = new Deno.Command("pdftotext", { args: ["-", "-"], stdin: "piped", stdout: "piped" })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(pdf);
  await writer.close();
  return new TextDecoder().decode((await child.output()).stdout);
}

/** The PDF attached to a raw MIME message (base64 part), as bytes. */
function attachedPdf(raw: string): Uint8Array {
  const part = raw.split(/\r?\n--/).find((p) => /Content-Type: application\/pdf/i.test(p))!;
  const body = part.split(/\r?\n\r?\n/).slice(1).join("").replace(/[\r\n]/g, "");
  return Uint8Array.from(atob(body.replace(/--.*$/, "")), (ch) => ch.charCodeAt(0));
}

let app: TestApp;
let browser: Browser;
let smtp: SmtpServer;
let owner: string;
const OPTICIAN_EMAIL = "maria@northside.test";

useBrowserApp(async (started) => {
  ({ app, browser, smtp } = started);
  owner = await storeWithMail(app, smtp, OPTICIAN_EMAIL);
}, { smtp: true });

/** An ACTIVE quote with two options, e-mailed to `email`; returns its id and the mailed link. */
async function emailedQuote(first: string, email: string) {
  const created = await call<CreatedClient>(app, "POST", "/api/clients", {
    cookie: owner,
    body: { firstName: first, lastName: "Ruiz", email },
  });
  await call(app, "PUT", `/api/clients/${created.body.client.id}/measurements`, {
    cookie: owner,
    body: { pdBinocular: "62", pdNear: "59", measurementsComplete: true },
  });
  const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${created.body.quote.id}`, {
    cookie: owner,
  })).body;
  const saved = await call(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
    cookie: owner,
    body: {
      version: bundle.quote.version,
      opticianName: "Maria",
      internalNotes: "INTERNAL-ONLY-5150",
      options: everydayAndSport(bundle.options[0].id),
    },
  });
  expect(saved.status).toBe(200);
  const sent = await call(app, "POST", `/api/quotes/${bundle.quote.id}/email`, {
    cookie: owner,
    body: { email, note: "" },
  });
  expect(sent.status).toBe(200);
  await waitUntil(() => onlineLinkIn(smtp.received, email) !== undefined, "the quote mail");
  return { quoteId: bundle.quote.id, link: onlineLinkIn(smtp.received, email)! };
}

async function openPhone(path: string): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: app.baseUrl,
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(err.message));
  await page.goto(path);
  return { page, context };
}

/**
 * A finger's stroke on the pad: touch pointer events (pointerType "touch",
 * as a phone's browser sends them) dispatched on the canvas, where the
 * signature pad listens; the moves and the lift bubble to the document.
 */
async function drawWithFinger(page: Page, selector: string) {
  await page.locator(selector).evaluate((canvas: HTMLCanvasElement) => {
    const box = canvas.getBoundingClientRect();
    const fire = (type: string, fx: number, fy: number, buttons: number) =>
      canvas.dispatchEvent(
        new PointerEvent(type, {
          bubbles: true,
          cancelable: true,
          composed: true,
          pointerId: 7,
          pointerType: "touch",
          isPrimary: true,
          button: 0,
          buttons,
          pressure: buttons ? 0.5 : 0,
          clientX: box.left + box.width * fx,
          clientY: box.top + box.height * fy,
        }),
      );
    fire("pointerdown", 0.1, 0.6, 1);
    for (let i = 1; i <= 24; i++) {
      const t = i / 24;
      fire("pointermove", 0.1 + 0.8 * t, 0.6 - 0.35 * Math.sin(t * Math.PI * 3), 1);
    }
    fire("pointerup", 0.9, 0.6, 0);
  });
}

async function history(quoteId: string) {
  const res = await call<HistoryEntry[]>(app, "GET", `/api/quotes/${quoteId}/history`, {
    cookie: owner,
  });
  return res.body.map((e) => e.summary);
}

describe("accepting a quote online on a phone", () => {
  it("takes the e-mailed link, an option, a finger signature and the terms → FINALIZED", async () => {
    const { quoteId, link } = await emailedQuote("Ana", "ana@example.com");
    const { page, context } = await openPhone(link);
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(page.locator("h1").textContent()).resolves.toBe("Your Quote");
    expect(await page.content()).not.toContain("INTERNAL-ONLY-5150");
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Phone-first: nothing wider than the screen, every control big enough for a finger.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    expect(await smallTapTargets(page)).toEqual([]);
    const shot = screenshotPath("online-quote-phone");
    if (shot) await page.screenshot({ path: shot, fullPage: true });

    await page.getByRole("checkbox", { name: "Sport", exact: true }).tap();
    await expect(page.getByTestId("selection-count").textContent()).resolves.toBe(
      "1 option selected",
    );
    await page.getByLabel("Your full name").fill("Ana Ruiz");
    // Accept before signing: the form says what is missing.
    await page.getByRole("button", { name: "Accept Quote" }).tap();
    await page.getByRole("alert").filter({ hasText: "Please sign in the box" }).waitFor();

    await page.getByTestId("signature-pad").scrollIntoViewIfNeeded();
    await drawWithFinger(page, "[data-testid=signature-pad]");
    await page.getByRole("button", { name: "Clear signature" }).waitFor({ state: "visible" });
    expect(await page.getByRole("button", { name: "Clear signature" }).isEnabled()).toBe(true);
    const terms = page.getByRole("checkbox", { name: /I accept the options/ });
    await terms.tap();
    expect(await terms.isChecked()).toBe(true);
    const signed = screenshotPath("online-quote-signed");
    if (signed) await page.screenshot({ path: signed, fullPage: true });
    await page.getByRole("button", { name: "Accept Quote" }).tap();
    await page.getByRole("heading", { name: "Thank you, Ana Ruiz" }).waitFor();
    const done = screenshotPath("online-quote-accepted");
    if (done) await page.screenshot({ path: done, fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);

    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).toBe("FINALIZED");
    const acceptance = await app.db.selectFrom("quoteAcceptances")
      .select(["signerName", "signaturePng", "typedSignature", "userAgent"])
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(acceptance.signerName).toBe("Ana Ruiz");
    expect(acceptance.typedSignature).toBe(false);
    // A drawn stroke, not an empty canvas: an empty 2x PNG of the pad is far smaller.
    expect(acceptance.signaturePng!.length).toBeGreaterThan(1500);
    expect(acceptance.userAgent).toContain("Chrome");
    const chosen = await app.db.selectFrom("quoteOptions").select(["label", "isChosen"])
      .where("quoteId", "=", quoteId).orderBy("position").execute();
    expect(chosen).toEqual([{ label: "Everyday", isChosen: false }, {
      label: "Sport",
      isChosen: true,
    }]);
    expect(await history(quoteId)).toEqual(
      expect.arrayContaining(["Viewed by the client", "Accepted online by Ana Ruiz"]),
    );

    // The signed copy reached the mail server once, and holds the signer's name.
    const signedMails = () =>
      smtp.received.filter((m) =>
        m.to.includes("ana@example.com") && m.raw.includes("-signed.pdf")
      );
    await waitUntil(() => signedMails().length > 0, "the signed copy arrives");
    expect(signedMails()).toHaveLength(1);
    const pdf = attachedPdf(signedMails()[0].raw);
    const text = await pdfText(pdf);
    expect(text).toContain("Ana Ruiz");
    expect(text).toContain("Accepted online");
    const pdfOut = Deno.env.get("SCREENSHOT_DIR");
    if (pdfOut) await Deno.writeFile(`${pdfOut}/online-signed-copy.pdf`, pdf);

    // Staff see it at once: the dashboard's list, the builder's card and history.
    const staff = await openSignedIn(browser, app.baseUrl, owner, DESKTOP);
    await staff.page.goto("/dashboard");
    const list = staff.page.getByTestId("accepted-online");
    await list.getByText("signed by Ana Ruiz").waitFor();
    await list.getByRole("link").first().click();
    await staff.page.waitForSelector("html[data-hydrated=true]");
    await staff.page.getByTestId("online-accepted").getByText("Accepted online by Ana Ruiz")
      .waitFor();
    expect(await seriousA11yViolations(staff.page, ".qb-online")).toEqual([]);
    await staff.page.getByRole("tab", { name: "History" }).click();
    await staff.page.locator(".qb-history").getByText("Accepted online by Ana Ruiz").waitFor();
    const builderShot = screenshotPath("online-quote-builder");
    if (builderShot) await staff.page.screenshot({ path: builderShot, fullPage: true });
    expect(staff.problems).toEqual([]);
    await staff.close();

    // The spent link: the 410 page with the store's contact, and nothing of the quote.
    const again = await page.goto(link);
    expect(again?.status()).toBe(410);
    await page.getByRole("heading", { name: "This quote was already accepted" }).waitFor();
    expect(await page.content()).toContain("(555) 222-3333");
    expect(await page.content()).not.toContain("Oakley");
    expect(await seriousA11yViolations(page)).toEqual([]);
    const gone = screenshotPath("online-quote-410");
    if (gone) await page.screenshot({ path: gone, fullPage: true });
    await context.close();
  });

  it("lets a keyboard user choose, sign with the typed name and accept", async () => {
    const { quoteId, link } = await emailedQuote("Bea", "bea@example.com");
    const { page, context } = await openPhone(link);
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByRole("checkbox", { name: "Everyday", exact: true }).focus();
    await page.keyboard.press("Space");
    await page.getByLabel("Your full name").focus();
    await page.keyboard.type("Bea Ruiz");
    await page.getByRole("button", { name: "Sign with my typed name instead" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".online-typed-name").filter({ hasText: "Bea Ruiz" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("checkbox", { name: /I accept the options/ }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Accept Quote" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Thank you, Bea Ruiz" }).waitFor();
    const acceptance = await app.db.selectFrom("quoteAcceptances")
      .select(["typedSignature", "signaturePng"]).where("quoteId", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(acceptance).toEqual({ typedSignature: true, signaturePng: null });
    await context.close();
  });

  it("shows a quote changed meanwhile as changed, with the promised words", async () => {
    const { quoteId, link } = await emailedQuote("Cy", "cy@example.com");
    const { page, context } = await openPhone(link);
    await page.waitForSelector("html[data-hydrated=true]");
    // Staff change the quote while the page is open.
    const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${quoteId}`, {
      cookie: owner,
    })).body;
    const saved = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: owner,
      body: {
        version: bundle.quote.version,
        opticianName: "Maria",
        options: [{
          id: bundle.options[0].id,
          items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-1", unitPrice: "99.00", qty: 1 }],
        }],
      },
    });
    expect(saved.status).toBe(200);
    await page.getByRole("checkbox", { name: "Everyday", exact: true }).tap();
    await page.getByLabel("Your full name").fill("Cy Ruiz");
    await page.getByRole("button", { name: "Sign with my typed name instead" }).tap();
    await page.getByRole("checkbox", { name: /I accept the options/ }).tap();
    await page.getByRole("button", { name: "Accept Quote" }).tap();
    await page.getByRole("alert").filter({
      hasText: "This quote has changed; the store will send you a new link.",
    }).waitFor();
    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).toBe("ACTIVE");
    await context.close();
  });
});

describe("staff revoke the online links", () => {
  it("from the builder, after a confirmation; the client's link then shows the 410 page", async () => {
    const { quoteId, link } = await emailedQuote("Dee", "dee@example.com");
    const staff = await openSignedIn(browser, app.baseUrl, owner, DESKTOP);
    await staff.page.goto(`/quote/${quoteId}`);
    await staff.page.waitForSelector("html[data-hydrated=true]");
    await staff.page.getByRole("button", { name: "Revoke online links" }).click();
    const dialog = staff.page.getByRole("dialog", { name: "Revoke Online Links" });
    await dialog.waitFor();
    expect(await seriousA11yViolations(staff.page, "dialog[open]")).toEqual([]);
    await dialog.getByRole("button", { name: "Revoke Links" }).click();
    await staff.page.getByText("1 online link revoked.").waitFor();
    await staff.page.getByText("No working online link").waitFor();
    expect(staff.problems).toEqual([]);
    await staff.close();
    const { page, context } = await openPhone(link);
    await page.getByRole("heading", { name: "This link was withdrawn" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});
