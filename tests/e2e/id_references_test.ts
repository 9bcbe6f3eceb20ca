import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { openSignedIn } from "../helpers/browser.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, cookie: string, created: CreatedClient;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  cookie = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  created = (await call<CreatedClient>(app, "POST", "/api/clients", {
    cookie,
    body: { firstName: "Ana", lastName: "Ruiz", email: "ana@example.com" },
  })).body;
});

/**
 * Every label target and aria reference must point at an element that exists.
 * Ids come from React's useId, so a server/browser tree mismatch shows up here
 * as soon as something rendered in the browser refers to something from the server.
 */
function danglingReferences(page: Page) {
  return page.evaluate(() => {
    const missing: string[] = [];
    for (
      const el of document.querySelectorAll("[aria-labelledby], [aria-describedby], label[for]")
    ) {
      const ids = [
        ...(el.getAttribute("aria-labelledby") ?? "").split(/\s+/),
        ...(el.getAttribute("aria-describedby") ?? "").split(/\s+/),
        el.getAttribute("for") ?? "",
      ].filter(Boolean);
      for (const id of ids) if (!document.getElementById(id)) missing.push(`${el.tagName}→${id}`);
    }
    return missing;
  });
}

async function open(path: string): Promise<Page> {
  const { page } = await openSignedIn(browser, app.baseUrl, cookie);
  await page.goto(path);
  await page.waitForSelector("html[data-hydrated=true]");
  return page;
}

describe("id references on island pages", () => {
  it("resolve on the intake, clients, builder and tablet pages, and in dialogs opened later", async () => {
    const intake = await open("/intake");
    expect(await danglingReferences(intake)).toEqual([]);
    await intake.context().close();

    const clients = await open("/clients");
    await clients.getByRole("button", { name: "Add New Client" }).click();
    await clients.getByRole("dialog").first().waitFor();
    expect(await danglingReferences(clients)).toEqual([]);
    await clients.context().close();

    const builder = await open(`/quote/${created.quote.id}`);
    expect(await danglingReferences(builder)).toEqual([]);
    await builder.getByRole("button", { name: "Close Quote" }).click();
    await builder.getByRole("dialog", { name: "Close Quote" }).waitFor();
    expect(await danglingReferences(builder)).toEqual([]);
    await builder.context().close();

    const tablet = await open(`/tablet/${created.quote.id}`);
    expect(await danglingReferences(tablet)).toEqual([]);
    await tablet.context().close();
  });
});
