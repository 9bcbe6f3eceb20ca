import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import {
  expectCount,
  openPage,
  screenshotPath,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { useBrowserApp } from "../helpers/suite.ts";

const STORE_NAME = "Clearview Optical";
const SMS_TEXT = "Clearview Optical may text me about my glasses. Reply STOP to opt out.";
const SUCCESS = "Client intake completed successfully!";
const FAILURE = "Failed to create client. Please try again.";

let app: TestApp, browser: Browser, staff: TestUser;
let google: { id: string; label: string };

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await app.db.updateTable("settings")
    .set({ storeName: STORE_NAME, smsConsentText: SMS_TEXT, emailConsentText: null })
    .where("id", "=", 1).execute();
  const rows = await app.db.insertInto("heardHowOptions").values([
    { label: "Google", sortOrder: 1 },
    { label: "Friend or family", sortOrder: 2 },
    { label: "Walked past the store", sortOrder: 3 },
    { label: "Retired newspaper ad", sortOrder: 4, active: false },
  ]).returning(["id", "label"]).execute();
  google = rows[0];
  staff = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
});

/** A fresh page that records page errors and console errors. */
async function openIntake(
  viewport = TABLET_PORTRAIT,
  options: { signedInAs?: string } = {},
): Promise<{ page: Page; problems: string[] }> {
  const cookie = options.signedInAs && await sessionCookieFor(app.db, options.signedInAs);
  const opened = await openPage(browser, app.baseUrl, {
    viewport,
    hasTouch: true,
    cookie: cookie || undefined,
  });
  await opened.page.goto("/intake");
  await opened.page.waitForSelector("html[data-hydrated=true]");
  return opened;
}

const submit = (page: Page) => page.getByRole("button", { name: "Submit Intake Form" });
// Required fields' labels end in an asterisk.
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));

async function horizontalOverflow(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

/** Everything a finger has to hit, smaller than 44px in either direction. */
async function smallTouchTargets(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const targets = document.querySelectorAll<HTMLElement>(
      ".intake-form input:not([type=checkbox]):not([type=radio]), .intake-form select, " +
        ".intake-form button, .intake-form .choice, .intake-form label.checkbox",
    );
    return Array.from(targets).flatMap((el) => {
      const box = el.getBoundingClientRect();
      const name = el.getAttribute("name") ?? el.textContent?.trim().slice(0, 30) ?? el.tagName;
      return box.height < 44 || box.width < 44
        ? [`${name}: ${Math.round(box.width)}×${Math.round(box.height)}`]
        : [];
    });
  });
}

async function clientByFirstName(firstName: string) {
  return await app.db.selectFrom("clients").selectAll()
    .select((eb) => eb.cast<string>("dob", "text").as("dobText"))
    .where("firstName", "=", firstName).executeTakeFirst();
}

describe("GET /intake over HTTP", () => {
  it("ships the IntakeForm island with the wording and choices already in the markup", async () => {
    const manifest = await readManifest();
    const res = await call(app, "GET", "/intake", { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toMatch(/<title>[^<]*Clearview Optical[^<]*<\/title>/);
    expect(res.text).toContain('data-island="IntakeForm"');
    expect(res.text).toContain(`src="${manifest.entry}"`);
    expect(res.text).toContain(`href="${manifest.islands.IntakeForm}"`);
    expect(res.text).toContain(`Welcome to ${STORE_NAME}`);
    expect(res.text).toContain(SMS_TEXT);
    expect(res.text).toContain("Walked past the store");
    expect(res.text).not.toContain("Retired newspaper ad");
    // Until hydrated, Submit cannot send personal details in a plain form submission.
    expect(res.text).toMatch(/<form[^>]*method="post"/);
    expect(res.text).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Submit Intake Form</);
    // Signed out: no staff bar.
    expect(res.text).not.toContain('data-testid="user-name"');
  });
});

describe("client intake in a browser", () => {
  it("welcomes the client by store name with the four cards, signed out without the staff bar", async () => {
    const { page, problems } = await openIntake();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      `Welcome to ${STORE_NAME}`,
    );
    for (
      const card of [
        "Personal Information",
        "Address Information",
        "Communication Preferences",
        "How did you hear about us?",
      ]
    ) {
      await expect(page.getByRole("heading", { name: card, level: 2 }).isVisible()).resolves.toBe(
        true,
      );
    }
    await expectCount(page.getByTestId("user-name"), 0);
    await expectCount(page.getByRole("link", { name: "Dashboard" }), 0);

    // Every field of the spec, with the keyboard a tablet should open.
    for (
      const label of [
        "First Name",
        "Middle Name",
        "Last Name",
        "Date of Birth",
        "Email",
        "Home Phone",
        "Mobile Phone",
        "Address Line 1",
        "Address Line 2",
        "City",
        "State",
        "ZIP Code",
      ]
    ) {
      await expect(field(page, label).isVisible()).resolves.toBe(true);
    }
    await expect(field(page, "Email").getAttribute("type")).resolves.toBe("email");
    await expect(field(page, "Mobile Phone").getAttribute("inputmode")).resolves.toBe("tel");
    await expect(field(page, "ZIP Code").getAttribute("inputmode")).resolves.toBe("numeric");
    await expect(field(page, "Date of Birth").getAttribute("type")).resolves.toBe("date");
    const states = await field(page, "State").locator("option").evaluateAll((opts) =>
      opts.map((o) => (o as HTMLOptionElement).value).filter(Boolean)
    );
    expect(states).toHaveLength(50);
    expect(states).toContain("CA");
    expect(states).not.toContain("DC");

    // Consent wording from the settings, and the default where the store has none.
    const sms = page.getByRole("checkbox", { name: /Text messages \(SMS\)/ });
    const email = page.getByRole("checkbox", { name: /^Email/ });
    await expect(sms.isChecked()).resolves.toBe(false);
    await expect(email.isChecked()).resolves.toBe(false);
    await expect(page.getByText(SMS_TEXT).isVisible()).resolves.toBe(true);
    await expect(page.getByText(`I agree to receive emails from ${STORE_NAME}`).isVisible())
      .resolves.toBe(true);

    // Active heard-how options in order, then Other.
    const choices = await page.getByRole("radiogroup", { name: "How did you hear about us?" })
      .getByRole("radio").evaluateAll((radios) =>
        radios.map((r) => (r.parentElement?.textContent ?? "").trim())
      );
    expect(choices).toEqual(["Google", "Friend or family", "Walked past the store", "Other"]);

    await expect(
      page.getByText(
        "Thank you for completing the intake form! Please hand the tablet back to your optician.",
      ).isVisible(),
    ).resolves.toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  for (
    const [orientation, viewport] of [["portrait", TABLET_PORTRAIT], [
      "landscape",
      TABLET_LANDSCAPE,
    ]] as const
  ) {
    it(`fits a tablet in ${orientation}: no horizontal scroll, touch-sized targets`, async () => {
      const { page } = await openIntake(viewport);
      await page.getByRole("radio", { name: "Other" }).check();
      await page.getByRole("checkbox", { name: /Text messages \(SMS\)/ }).check();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await smallTouchTargets(page)).toEqual([]);
      const shot = screenshotPath(`intake-${orientation}`);
      if (shot) await page.screenshot({ path: shot, fullPage: true });

      await submit(page).click();
      await page.getByText("First name is required").waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      const errors = screenshotPath(`intake-${orientation}-errors`);
      if (errors) await page.screenshot({ path: errors, fullPage: true });
      await page.context().close();
    });
  }

  it("validates on submit, then again on every change", async () => {
    const { page } = await openIntake();
    let posts = 0;
    page.on("request", (req) => {
      if (req.method() === "POST" && req.url().endsWith("/api/clients")) posts++;
    });
    await expectCount(page.getByText("First name is required"), 0);
    // Before the first submit, typing shows nothing.
    await field(page, "Email").fill("not-an-email");
    await expectCount(page.getByText("Please enter a valid email address"), 0);

    await submit(page).click();
    await page.getByText("First name is required").waitFor();
    await expect(page.getByText("Last name is required").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Please enter a valid email address").isVisible()).resolves.toBe(
      true,
    );
    await expect(field(page, "First Name").getAttribute("aria-invalid")).resolves.toBe("true");
    // The first field in error takes the focus.
    await expect(page.evaluate(() => document.activeElement?.getAttribute("name"))).resolves.toBe(
      "firstName",
    );
    expect(posts).toBe(0);

    await field(page, "First Name").fill("Ada");
    await expectCount(page.getByText("First name is required"), 0);
    await expect(page.getByText("Last name is required").isVisible()).resolves.toBe(true);
    await field(page, "Last Name").fill("Lovelace");
    await expectCount(page.getByText("Last name is required"), 0);
    // An e-mail is valid or empty.
    await field(page, "Email").fill("");
    await expectCount(page.getByText("Please enter a valid email address"), 0);
    await field(page, "Email").fill("ada@");
    await expect(page.getByText("Please enter a valid email address").isVisible()).resolves.toBe(
      true,
    );
    await field(page, "Email").fill("ada@example.com");
    await expectCount(page.getByText("Please enter a valid email address"), 0);
    await expect(field(page, "First Name").getAttribute("aria-invalid")).resolves.toBeNull();
    expect(posts).toBe(0);
    await page.context().close();
  });

  it("Other reveals a free-text field, which keeps its text while another choice is tried", async () => {
    const { page } = await openIntake();
    const other = page.getByLabel("Please tell us how");
    await expectCount(other, 0);
    await page.getByRole("radio", { name: "Other" }).check();
    await other.waitFor();
    // Choosing Other puts the cursor there, so the keyboard is already up.
    await expect(other.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await other.fill("Radio advert");
    await page.getByRole("radio", { name: "Google" }).check();
    await expectCount(other, 0);
    await page.getByRole("radio", { name: "Other" }).check();
    await expect(other.inputValue()).resolves.toBe("Radio advert");
    await page.context().close();
  });

  it("submits: Submitting..., the toast, the client and SMS consent in the database, then the quote", async () => {
    const { page, problems } = await openIntake();
    const consentCalls: unknown[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/consent")) consentCalls.push(req.postDataJSON());
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/clients", async (route) => {
      await held;
      await route.continue();
    });

    await field(page, "First Name").fill("Grace");
    await field(page, "Last Name").fill("Hopper");
    await field(page, "Date of Birth").fill("1970-12-09");
    await field(page, "Mobile Phone").fill("(555) 010-2030");
    await field(page, "Address Line 1").fill("1 Navy Way");
    await field(page, "City").fill("Arlington");
    await field(page, "State").selectOption("VA");
    await field(page, "ZIP Code").fill("22201");
    await page.getByRole("checkbox", { name: /Text messages \(SMS\)/ }).check();
    // Opted in to e-mail without an address: told, and no consent record for it.
    await page.getByRole("checkbox", { name: /^Email/ }).check();
    await page.getByText("Add an email address above so we can email you.").waitFor();
    await page.getByRole("radio", { name: "Other" }).check();
    await page.getByLabel("Please tell us how").fill("Saw the sign outside");

    await submit(page).click();
    const busy = page.getByRole("button", { name: "Submitting..." });
    await busy.waitFor();
    await expect(busy.isDisabled()).resolves.toBe(true);
    release();

    await page.getByText(SUCCESS).waitFor();
    const shot = screenshotPath("intake-portrait-success");
    if (shot) await page.screenshot({ path: shot });
    await page.waitForURL(/\/staff\?returnTo=/);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/staff");
    const returnTo = url.searchParams.get("returnTo")!;
    expect(page.url()).toBe(`${app.baseUrl}/staff?returnTo=${encodeURIComponent(returnTo)}`);
    expect(returnTo).toMatch(/^\/quote\/[0-9a-f-]{36}$/);

    const client = await clientByFirstName("Grace");
    expect(client).toMatchObject({
      lastName: "Hopper",
      dobText: "1970-12-09",
      mobilePhone: "(555) 010-2030",
      email: null,
      state: "VA",
      zip: "22201",
      heardHowId: null,
      heardHowText: "Saw the sign outside",
      smsConsent: true,
    });
    const quote = await app.db.selectFrom("quotes").select(["id", "clientId", "status"])
      .where("id", "=", returnTo.slice("/quote/".length)).executeTakeFirstOrThrow();
    expect(quote).toMatchObject({ clientId: client!.id, status: "DRAFT" });
    const consents = await app.db.selectFrom("consentRecords")
      .select(["consentType", "statement", "target", "consentGiven"])
      .where("clientId", "=", client!.id).execute();
    expect(consents).toEqual([{
      consentType: "SMS",
      statement: SMS_TEXT,
      target: "(555) 010-2030",
      consentGiven: true,
    }]);
    expect(consentCalls).toEqual([{
      clientId: client!.id,
      type: "SMS",
      statement: SMS_TEXT,
      target: "(555) 010-2030",
      consentGiven: true,
    }]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("signed in: the staff bar shows, a listed choice and e-mail consent are saved, and it goes to the quote", async () => {
    const { page, problems } = await openIntake(TABLET_LANDSCAPE, { signedInAs: staff.id });
    await expect(page.getByTestId("user-name").textContent()).resolves.toBe("Maria");
    await expect(page.getByRole("link", { name: "New Client" }).getAttribute("aria-current"))
      .resolves.toBe("page");
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const shot = screenshotPath("intake-landscape-signed-in");
    if (shot) await page.screenshot({ path: shot, fullPage: true });

    await field(page, "First Name").fill("Katherine");
    await field(page, "Last Name").fill("Johnson");
    await field(page, "Email").fill("katherine@example.com");
    await field(page, "Home Phone").fill("555-0199");
    await page.getByRole("checkbox", { name: /^Email/ }).check();
    await page.getByRole("radio", { name: "Google" }).check();
    await submit(page).click();
    await page.getByText(SUCCESS).waitFor();
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}$/);

    const client = await clientByFirstName("Katherine");
    expect(client).toMatchObject({
      email: "katherine@example.com",
      heardHowId: google.id,
      heardHowText: null,
      smsConsent: false,
      emailConsent: true,
    });
    const quote = await app.db.selectFrom("quotes").select("clientId")
      .where("id", "=", new URL(page.url()).pathname.split("/")[2]).executeTakeFirstOrThrow();
    expect(quote.clientId).toBe(client!.id);
    const consents = await app.db.selectFrom("consentRecords")
      .select(["consentType", "statement", "target"])
      .where("clientId", "=", client!.id).execute();
    expect(consents).toHaveLength(1);
    expect(consents[0].consentType).toBe("EMAIL");
    expect(consents[0].target).toBe("katherine@example.com");
    expect(consents[0].statement).toContain(`I agree to receive emails from ${STORE_NAME}`);
    expect(problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
    await page.context().close();
  });

  it("a failed submission says so and loses nothing typed; the server's field errors show", async () => {
    const { page } = await openIntake();
    await page.route("**/api/clients", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          message: "Invalid input",
          errors: { zip: "Please enter a valid ZIP code" },
        }),
      }));
    await field(page, "First Name").fill("Alan");
    await field(page, "Last Name").fill("Turing");
    await field(page, "ZIP Code").fill("ABCDE");
    await page.getByRole("radio", { name: "Other" }).check();
    await page.getByLabel("Please tell us how").fill("A friend");
    await submit(page).click();

    const alert = page.getByRole("alert").filter({ hasText: FAILURE });
    await alert.waitFor();
    const shot = screenshotPath("intake-portrait-failure");
    if (shot) await page.screenshot({ path: shot });
    await expect(page.getByText("Please enter a valid ZIP code").isVisible()).resolves.toBe(true);
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "zip");
    await expect(field(page, "First Name").inputValue()).resolves.toBe("Alan");
    await expect(field(page, "ZIP Code").inputValue()).resolves.toBe("ABCDE");
    await expect(page.getByLabel("Please tell us how").inputValue()).resolves.toBe("A friend");
    await expect(submit(page).isEnabled()).resolves.toBe(true);
    expect(new URL(page.url()).pathname).toBe("/intake");
    await expect(clientByFirstName("Alan")).resolves.toBeUndefined();

    // A server failure of another kind gives the same message.
    await page.unroute("**/api/clients");
    await page.route("**/api/clients", (route) => route.fulfill({ status: 500, body: "" }));
    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await submit(page).click();
    await alert.waitFor();
    await expect(field(page, "Last Name").inputValue()).resolves.toBe("Turing");
    await page.context().close();
  });

  it("a failed consent record is only logged: no error toast, and it still goes on", async () => {
    const { page, problems } = await openIntake();
    await page.route("**/api/consent", (route) => route.fulfill({ status: 500, body: "boom" }));
    await field(page, "First Name").fill("Hedy");
    await field(page, "Last Name").fill("Lamarr");
    await field(page, "Mobile Phone").fill("555-0142");
    await page.getByRole("checkbox", { name: /Text messages \(SMS\)/ }).check();
    await submit(page).click();
    await page.getByText(SUCCESS).waitFor();
    await expectCount(page.getByText(FAILURE), 0);
    await page.waitForURL(/\/staff\?returnTo=%2Fquote%2F/);
    expect(problems.some((p) => p.includes("Failed to record SMS consent"))).toBe(true);
    const client = await clientByFirstName("Hedy");
    expect(client?.smsConsent).toBe(true);
    await page.context().close();
  });
});
