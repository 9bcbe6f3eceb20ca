// The Stores page and the stores of the Users page (issue 48), in a browser:
// the owner adds a second store, sets its address and hours, gives one field
// back to the chain, cannot deactivate the last active store, gives a user
// both stores and makes an admin a store admin; that store admin then sees
// only their store and its users.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { realPng } from "../helpers/images.ts";
import { Buffer } from "node:buffer";
import { LAST_ACTIVE_STORE } from "../../src/stores/admin_stores.ts";

let app: TestApp, browser: Browser, owner: TestUser, admin: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  [owner, admin] = await Promise.all([
    createTestUser(app.db, { role: "OWNER", firstName: "Olivia", username: "olivia_owner" }),
    createTestUser(app.db, { role: "ADMIN", firstName: "Adam", username: "adam_admin" }),
    createTestUser(app.db, { firstName: "Sam", username: "sam_staff" }),
  ]);
  await app.db.insertInto("labs").values({ name: "Hoya Vision Lab", turnaroundDays: 3 }).execute();
});

const open = async (user: TestUser, path: string) => {
  const opened = await openSignedIn(
    browser,
    app.baseUrl,
    await sessionCookieFor(app.db, user.id),
    DESKTOP,
  );
  const res = await opened.page.goto(path);
  expect(res?.status()).toBe(200);
  await opened.page.waitForSelector("html[data-hydrated=true]");
  return opened;
};
const dialog = (page: Page) => page.locator("dialog[open]");
const field = (page: Page, label: string) => dialog(page).getByLabel(label, { exact: true });
const storeRow = (page: Page, code: string) =>
  page.locator("tbody tr").filter({
    has: page.locator("td", { hasText: new RegExp(`^${code}$`) }),
  });
const userRow = (page: Page, username: string) =>
  page.locator("tbody tr").filter({
    has: page.locator(".users-username", { hasText: new RegExp(`^${username}(\\(you\\))?$`) }),
  });
const expectToast = (page: Page, text: string) =>
  page.locator(".toast").getByText(text, { exact: true }).first().waitFor();

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

const storeByCode = (code: string) =>
  app.db.selectFrom("stores").selectAll().where("code", "=", code).executeTakeFirstOrThrow();

describe("the Stores page", () => {
  it("the owner adds a store, sets its own hours and address and gives one field back", async () => {
    const { page, problems, close } = await open(owner, "/admin/stores");
    try {
      await page.getByRole("heading", { name: "Stores", exact: true }).waitFor();
      await storeRow(page, "MAIN").waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Add Store" }).click();
      await dialog(page).getByRole("heading", { name: "Add Store" }).waitFor();
      // The chain's value is each field's placeholder.
      expect(await field(page, "Phone").getAttribute("placeholder")).toBeTruthy();
      expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
      // Checked here first, by the API's own schema.
      await field(page, "Code").fill("UP-2");
      await dialog(page).getByRole("button", { name: "Add Store" }).click();
      await dialog(page).getByText("Code must be 1 to 8 letters or digits").waitFor();
      await field(page, "Code").fill("up");
      await field(page, "Store Name").fill("Uptown Optical");
      await shoot(page, "stores-add-dialog");
      await dialog(page).getByRole("button", { name: "Add Store" }).click();
      await expectToast(page, "Store UP added.");
      await storeRow(page, "UP").getByText("Uptown Optical").waitFor();

      await page.getByRole("button", { name: "Edit store UP" }).click();
      await dialog(page).getByRole("heading", { name: "Edit Store UP" }).waitFor();
      await field(page, "Address").fill("5 Hill Road\nSpringfield");
      await field(page, "Opening Time").fill("10:00");
      await field(page, "Closing Time").fill("18:30");
      await dialog(page).getByRole("checkbox", { name: "Sunday" }).check();
      // Its orders go to one lab only; it gets a logo of its own, saved at once
      // while what was typed in the dialog stays.
      await dialog(page).getByRole("checkbox", { name: "Hoya Vision Lab" }).check();
      await dialog(page).getByLabel("Choose logo file").setInputFiles({
        name: "uptown.png",
        mimeType: "image/png",
        buffer: Buffer.from(realPng(60, 30)),
      });
      await dialog(page).getByRole("button", { name: "Upload Logo" }).click();
      await expectToast(page, "Logo Updated");
      await dialog(page).getByText("This store's own logo.").waitFor();
      await expect(field(page, "Address").inputValue()).resolves.toBe("5 Hill Road\nSpringfield");
      expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
      // The name goes back to the chain's.
      await dialog(page).getByRole("button", { name: "Use chain setting for store name" }).click();
      await expect(field(page, "Store Name").inputValue()).resolves.toBe("");
      await shoot(page, "stores-edit-dialog");
      await dialog(page).getByRole("button", { name: "Save Store" }).scrollIntoViewIfNeeded();
      await shoot(page, "stores-edit-dialog-end");
      await dialog(page).getByRole("button", { name: "Save Store" }).click();
      await expectToast(page, "Store UP saved.");
      await storeRow(page, "UP").getByText("10:00–18:30").waitFor();
      const up = await storeByCode("UP");
      expect(up).toMatchObject({
        name: null,
        address: "5 Hill Road\nSpringfield",
        openingTime: "10:00",
        closingTime: "18:30",
      });
      expect(up.openingDays?.split(",")).toContain("0");
      expect(up.logoUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
      const labs = await app.db.selectFrom("storeLabs").innerJoin(
        "labs",
        "labs.id",
        "storeLabs.labId",
      )
        .select("labs.name").where("storeLabs.storeId", "=", up.id).execute();
      expect(labs.map((l) => l.name)).toEqual(["Hoya Vision Lab"]);

      // Deactivating asks first; the last active store stays active, as the server says.
      await page.getByRole("button", { name: "Deactivate store UP" }).click();
      expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
      await dialog(page).getByRole("button", { name: "Deactivate Store" }).click();
      await expectToast(page, "Store UP is inactive.");
      await page.getByRole("button", { name: "Deactivate store MAIN" }).click();
      await dialog(page).getByRole("button", { name: "Deactivate Store" }).click();
      await expectToast(page, LAST_ACTIVE_STORE);
      await dialog(page).getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("button", { name: "Activate store UP" }).click();
      await expectToast(page, "Store UP is active again.");
      await shoot(page, "stores-owner");
      expect(problems.filter((p) => !p.includes("409"))).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the owner gives a user both stores and makes an admin a store admin", async () => {
    const up = await storeByCode("UP");
    await createTestUser(app.db, { firstName: "Uma", username: "uma_uptown", storeIds: [up.id] });
    const { page, problems, close } = await open(owner, "/admin/users");
    try {
      await page.getByRole("columnheader", { name: "Stores" }).waitFor();
      await page.getByRole("button", { name: "Add User" }).click();
      await field(page, "Email").fill("bea@store.test");
      await field(page, "First Name").fill("Bea");
      await field(page, "Last Name").fill("Both");
      await field(page, "Username").fill("bea_both");
      await field(page, "Password").fill("secret1");
      await dialog(page).getByRole("checkbox", { name: "MAIN" }).check();
      await dialog(page).getByRole("checkbox", { name: "UP" }).check();
      expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
      await shoot(page, "users-add-with-stores");
      await dialog(page).getByRole("button", { name: "Create User" }).click();
      await userRow(page, "bea_both").getByText("MAIN, UP").waitFor();

      await userRow(page, "adam_admin").getByRole("button", { name: "Change Role" }).click();
      const chainAdmin = dialog(page).getByRole("checkbox", { name: /Chain admin/ });
      await expect(chainAdmin.isChecked()).resolves.toBe(true);
      await chainAdmin.uncheck();
      expect(await seriousA11yViolations(page, "dialog[open]")).toEqual([]);
      await dialog(page).getByRole("button", { name: "Update Role" }).click();
      await userRow(page, "adam_admin").getByText("(stores)").waitFor();
      const adam = await app.db.selectFrom("users").select("chainAdmin")
        .where("id", "=", admin.id).executeTakeFirstOrThrow();
      expect(adam.chainAdmin).toBe(false);
      await shoot(page, "users-owner-chain");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the store admin sees only their store and its users", async () => {
    const { page, problems, close } = await open(admin, "/admin/stores");
    try {
      await storeRow(page, "MAIN").waitFor();
      await expect(storeRow(page, "UP").count()).resolves.toBe(0);
      await expect(page.getByRole("button", { name: "Add Store" }).count()).resolves.toBe(0);
      await expect(page.getByRole("button", { name: /^Deactivate/ }).count()).resolves.toBe(0);
      await page.getByRole("button", { name: "Edit store MAIN" }).click();
      // The code is the chain's: shown, not edited.
      await expect(field(page, "Code").count()).resolves.toBe(0);
      await field(page, "Phone").fill("(555) 010-0199");
      await dialog(page).getByRole("button", { name: "Save Store" }).click();
      await expectToast(page, "Store MAIN saved.");
      await shoot(page, "stores-store-admin");

      await page.goto("/admin/users");
      await page.waitForSelector("html[data-hydrated=true]");
      await userRow(page, "bea_both").waitFor();
      await expect(userRow(page, "uma_uptown").count()).resolves.toBe(0);
      await userRow(page, "sam_staff").getByRole("button", { name: "Change Stores" }).click();
      await expect(dialog(page).getByRole("checkbox").count()).resolves.toBe(1);
      await dialog(page).getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("button", { name: "Add User" }).click();
      await field(page, "Email").waitFor();
      // A store admin makes no chain admin: no such box.
      await dialog(page).getByLabel("Role").selectOption("ADMIN");
      await expect(dialog(page).getByRole("checkbox", { name: /Chain admin/ }).count()).resolves
        .toBe(0);
      await shoot(page, "users-store-admin");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
