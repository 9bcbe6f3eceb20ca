import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { expectCount, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { deadPort, mailSettingsFor, startSmtpServer } from "../helpers/smtp.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let owner: string;

useBrowserApp(async (started) => {
  ({ app, browser, smtp } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
}, { smtp: true });

function configureMail(port: number | null) {
  return call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: port === null ? { smtpHost: null } : mailSettingsFor(smtp, { port }),
  });
}

/** A client with measurements done and a saved quote, so it is ACTIVE. */
async function activeQuote(email: string | null) {
  const created = await call<CreatedClient>(app, "POST", "/api/clients", {
    cookie: owner,
    body: { firstName: "Ana", lastName: "Ruiz", email },
  });
  await call(app, "PUT", `/api/clients/${created.body.client.id}/measurements`, {
    cookie: owner,
    body: { pdBinocular: "62", pdNear: "59", measurementsComplete: true },
  });
  const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${created.body.quote.id}`, {
    cookie: owner,
  })).body;
  await call(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
    cookie: owner,
    body: {
      version: bundle.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: [{
        id: bundle.options[0].id,
        items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-1", unitPrice: "150.00", qty: 1 }],
      }],
    },
  });
  return { quoteId: bundle.quote.id, clientId: created.body.client.id };
}

async function openBuilder(quoteId: string): Promise<Page> {
  const { page } = await openSignedIn(browser, app.baseUrl, owner);
  await page.goto(`/quote/${quoteId}`);
  await page.waitForSelector("html[data-hydrated=true]");
  return page;
}

describe("e-mailing a quote from the builder", () => {
  it("is off, with the reason, while e-mail is not configured", async () => {
    await configureMail(null);
    const { quoteId } = await activeQuote("ana@example.com");
    const page = await openBuilder(quoteId);
    const button = page.getByRole("button", { name: "Email Quote" });
    await expect(button.isDisabled()).resolves.toBe(true);
    await expect(page.locator("#qb-email-why").textContent()).resolves.toContain(
      "Email is not configured",
    );
    await page.context().close();
  });

  it("checks the address, can update the client's e-mail, sends, and shows Emailed", async () => {
    await configureMail(smtp.port);
    const { quoteId, clientId } = await activeQuote("old@example.com");
    const page = await openBuilder(quoteId);
    await page.getByRole("button", { name: "Email Quote" }).click();
    const dialog = page.getByRole("dialog", { name: "Email Quote" });
    const address = dialog.getByLabel("Client's email address");
    await expect(address.inputValue()).resolves.toBe("old@example.com");
    await address.fill("  ");
    await dialog.getByRole("button", { name: "Send Email" }).click();
    await expect(dialog.locator(".field-error").textContent()).resolves.toBe(
      "Please enter the client's email address",
    );
    await address.fill("ana.new@example.com");
    await expectCount(dialog.locator(".field-error"), 0);
    const keep = dialog.getByLabel("Also change the client's email from old@example.com");
    await expect(keep.isChecked()).resolves.toBe(true);
    await dialog.getByLabel("Note (optional)").fill("Lovely to see you today!");
    const shot = screenshotPath("builder-email-dialog");
    if (shot) await page.screenshot({ path: shot });
    const before = smtp.received.length;
    await dialog.getByRole("button", { name: "Send Email" }).click();
    await page.getByText("Quote emailed successfully!").waitFor();
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(["ana.new@example.com"]);
    expect(mail.raw).toContain("Lovely to see you today!");
    expect(mail.raw).toContain("application/pdf");
    const client = await app.db.selectFrom("clients").select("email").where("id", "=", clientId)
      .executeTakeFirstOrThrow();
    expect(client.email).toBe("ana.new@example.com");
    await page.locator(".badge", { hasText: "Emailed" }).first().waitFor();
    await page.context().close();
  });

  it("says so when the mail server is down, and the message waits in the outbox", async () => {
    await configureMail(deadPort());
    const { quoteId } = await activeQuote("ana@example.com");
    const page = await openBuilder(quoteId);
    await page.getByRole("button", { name: "Email Quote" }).click();
    await page.getByRole("dialog", { name: "Email Quote" }).getByRole("button", {
      name: "Send Email",
    }).click();
    await page.getByText("Email queued").waitFor();
    await expect(page.getByText(/could not be reached/).isVisible()).resolves.toBe(true);
    const queued = await app.db.selectFrom("emailOutbox").select("status")
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(queued.status).toBe("PENDING");
    await page.context().close();
  });
});
