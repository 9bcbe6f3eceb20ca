// `deno task screenshots [outDir]`: the pictures of docs/images/, taken of the
// demo store. It seeds a throwaway embedded database as `deno task seed` does
// (cli/seed.ts), starts main.ts on it as `deno task start` does, signs in as
// the demo staff and takes each screen at the fixed size SHOTS gives it. It
// lives under tests/ because it drives Chromium with playwright-core, which
// the Docker image leaves out; the database is always the embedded one (a
// TEST_DATABASE_URL or DATABASE_URL of the caller is never used), removed at
// the end with every process the run started.
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DESKTOP, launchBrowser, openPage, TABLET_LANDSCAPE, visit } from "./helpers/browser.ts";
import { type AppProcess, projectRoot, startAppProcess } from "./helpers/process.ts";
import { call, passwordSignIn } from "./helpers/test_app.ts";
import { mailSettingsFor, type SmtpServer, startSmtpServer } from "./helpers/smtp.ts";
import { onlineLinkIn } from "./helpers/online_link.ts";
import { DEMO_PASSWORD } from "../src/seed/demo_store.ts";
import type { QuoteBundle, QuoteOptionView } from "../src/quotes/views.ts";
import type { OrderBundle } from "../src/orders/views.ts";

type Size = { width: number; height: number };

/** Every picture the script makes and its size in CSS pixels (= PNG pixels: scale 1). */
export const SHOTS = {
  /** The staff dashboard, at the desk. */
  "dashboard.png": DESKTOP,
  /** The quote builder with a quote of three options. */
  "builder.png": DESKTOP,
  /** The client choosing an option on the tablet handed over from the builder. */
  "tablet.png": TABLET_LANDSCAPE,
  /** The online acceptance page, opened from the link in the quote e-mail, an option ticked. */
  "online-acceptance.png": DESKTOP,
  /** An order with two jobs (one at the lab) and a deposit: tall enough for the payments. */
  "order.png": { width: 1280, height: 1200 },
} as const satisfies Record<string, Size>;

export type ShotName = keyof typeof SHOTS;

/** Where `deno task screenshots` writes when given no folder. */
export const DEFAULT_OUT_DIR = join(projectRoot, "docs", "images");

/** The demo store's people and quotes the pictures show (src/seed/demo_store.ts). */
const OPTICIAN = "maria.optician";
const ADMIN = "admin.demo";
const BUILDER_CLIENT = "Olivia Bennett";
/** Her quote's "Sun" option becomes the builder quote's third. */
const TABLET_CLIENT = "Hannah Lindqvist";
const ONLINE_CLIENT = "Daniel Kowalski";
const ONLINE_EMAIL = "dan.kowalski@example.com";
const ORDER_CLIENT = "Ethan Nguyen";

interface DemoStore {
  baseUrl: string;
  smtp: SmtpServer;
  /** What the app wrote to stderr, told only when the run fails. */
  appErrors: string[];
  close(): Promise<void>;
}

/**
 * The demo store: a fresh DATA_DIR seeded by cli/seed.ts, main.ts serving it
 * on a free port, and a loopback mail server the quote e-mail goes to.
 */
async function startDemoStore(): Promise<DemoStore> {
  const dataDir = await Deno.makeTempDir({ prefix: "lensdesk-screenshots-" });
  // An empty DATABASE_URL is "unset" for loadConfig: the embedded database in DATA_DIR.
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", LOG_REQUESTS: "0" };
  let seeding: Deno.ChildProcess | undefined;
  let app: AppProcess | undefined;
  let smtp: SmtpServer | undefined;
  // Ctrl-C (or a SIGTERM) mid-run leaves no process or data directory behind.
  // All at once, not awaited: Playwright's own handler ends the process as
  // soon as Chromium is closed.
  const onSignal = () => {
    for (const child of [seeding, app?.child]) {
      try {
        child?.kill("SIGKILL");
      } catch {
        // already ended
      }
    }
    Deno.removeSync(dataDir, { recursive: true });
    Deno.exit(130);
  };
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  const close = async () => {
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    await app?.stop().catch(() => {});
    await app?.kill();
    await smtp?.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  };
  try {
    seeding = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "cli/seed.ts"],
      cwd: projectRoot,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const seeded = await seeding.output();
    if (!seeded.success) {
      const dec = new TextDecoder();
      throw new Error(
        `the demo seed failed:\n${dec.decode(seeded.stdout)}${dec.decode(seeded.stderr)}`,
      );
    }
    [app, smtp] = await Promise.all([
      startAppProcess(env, { errors: true }),
      startSmtpServer(),
    ]);
    return { baseUrl: app.baseUrl, smtp, appErrors: app.errors, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The id of the newest quote of a demo client, by their name: from the
 * client's record, which lists their quotes of every store of the demo chain
 * (the quotes list shows the staff member's own store).
 */
async function quoteOf(store: DemoStore, cookie: string, client: string): Promise<string> {
  const res = await call<Array<{ id: string }>>(
    store,
    "GET",
    `/api/clients/search?q=${encodeURIComponent(client)}`,
    { cookie },
  );
  const person = res.status === 200 ? res.body[0] : undefined;
  const detail = person &&
    await call<{ quotes: Array<{ id: string }> }>(store, "GET", `/api/clients/${person.id}`, {
      cookie,
    });
  const found = detail?.status === 200 ? detail.body.quotes[0] : undefined;
  if (!found) throw new Error(`no quote of ${client}: ${res.status} ${res.text.slice(0, 300)}`);
  return found.id;
}

/** A call that must answer `status`; its body. */
async function must<T>(
  store: DemoStore,
  status: number,
  method: string,
  path: string,
  options: { cookie: string; body?: unknown },
): Promise<T> {
  const res = await call<T>(store, method, path, options);
  if (res.status !== status) {
    throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return res.body;
}

/**
 * Waits until the page has nothing more to show: no request in flight, the
 * fonts loaded, no loading line or busy control; then checks that no toast
 * (an error or a stale notice) and no page or console error is in the picture.
 */
async function settle(page: Page, problems: string[], what: string) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    !Array.from(document.querySelectorAll(".loading, [role=status], [aria-busy=true]"))
      .some((el) =>
        (el as HTMLElement).checkVisibility() &&
        (el.getAttribute("aria-busy") === "true" || /loading/i.test(el.textContent ?? ""))
      )
  );
  const toasts = await page.locator(".toast").allInnerTexts();
  if (toasts.length) throw new Error(`${what}: a toast is showing: ${toasts.join(" | ")}`);
  if (problems.length) throw new Error(`${what}: the page reported ${problems.join("; ")}`);
}

async function shoot(page: Page, problems: string[], outDir: string, name: ShotName) {
  await settle(page, problems, name);
  await page.screenshot({
    path: join(outDir, name),
    animations: "disabled",
    caret: "hide",
    scale: "css",
  });
}

/**
 * Takes every picture of SHOTS into `outDir` (made when missing): one browser,
 * one demo store, both closed at the end, failed or not. Returns the paths.
 */
export async function takeScreenshots(
  outDir: string = DEFAULT_OUT_DIR,
  log: (line: string) => void = () => {},
): Promise<string[]> {
  await Deno.mkdir(outDir, { recursive: true });
  log("starting the demo store (a seeded embedded database) and Chromium...");
  // Side by side: Chromium starts while the seed runs. Whichever started is closed at the end.
  const [started, launched] = await Promise.allSettled([startDemoStore(), launchBrowser()]);
  const store = started.status === "fulfilled" ? started.value : undefined;
  const browser = launched.status === "fulfilled" ? launched.value : undefined;
  try {
    if (!store) throw (started as PromiseRejectedResult).reason;
    if (!browser) throw (launched as PromiseRejectedResult).reason;
    // The sign-in fixture: the demo staff's password over HTTP, as the form sends it;
    // the session's cookie of those it sets (the page's context takes that one alone).
    const signIn = async (username: string) => {
      const cookies = await passwordSignIn(store, username, DEMO_PASSWORD);
      const session = cookies.split("; ").find((c) => c.startsWith("lensdesk_session="));
      if (!session) throw new Error(`signing in as ${username} set no session: ${cookies}`);
      return session;
    };
    const admin = await signIn(ADMIN);
    const maria = await signIn(OPTICIAN);
    const open = (size: Size, cookie?: string, hasTouch = false) =>
      openPage(browser, store.baseUrl, { viewport: size, cookie, hasTouch });

    // What the pictures need beyond the seed: mail to the loopback server (the
    // quote e-mail's link), a lab and an order on the finalized quote.
    await must(store, 200, "PUT", "/api/admin/settings", {
      cookie: admin,
      body: mailSettingsFor(store.smtp, { fromEmail: "quotes@northside-eyewear.example" }),
    });
    const lab = await must<{ id: string }>(store, 201, "POST", "/api/admin/labs", {
      cookie: admin,
      body: { name: "Essilor Lab Chicago", email: "orders@essilor-lab.example", turnaroundDays: 5 },
    });

    log("dashboard.png");
    {
      const { page, problems, close } = await open(SHOTS["dashboard.png"], maria);
      await visit(page, "/dashboard");
      await shoot(page, problems, outDir, "dashboard.png");
      await close();
    }

    log("builder.png");
    {
      // The seed's quotes have two options at most: Olivia's gets a third, the
      // sun pair of Hannah's quote, saved as the builder saves a quote.
      const quoteId = await quoteOf(store, maria, BUILDER_CLIENT);
      const quote = await must<QuoteBundle>(store, 200, "GET", `/api/quotes/${quoteId}`, {
        cookie: maria,
      });
      const sun = (await must<QuoteBundle>(
        store,
        200,
        "GET",
        `/api/quotes/${await quoteOf(store, maria, TABLET_CLIENT)}`,
        { cookie: maria },
      )).options.find((o) => o.label === "Sun");
      if (!sun) throw new Error(`${TABLET_CLIENT}'s quote has no "Sun" option`);
      const asSaved = (o: QuoteOptionView) => ({ ...o, segOc: o.frameMeasurements.segOc });
      await must(store, 200, "PUT", `/api/quotes/${quoteId}`, {
        cookie: maria,
        body: {
          version: quote.quote.version,
          opticianName: quote.quote.opticianName,
          internalNotes: quote.quote.internalNotes,
          options: [...quote.options.map(asSaved), { ...asSaved(sun), id: "temp-sun" }],
        },
      });
      const { page, problems, close } = await open(SHOTS["builder.png"], maria);
      await visit(page, `/quote/${quoteId}`);
      await page.getByRole("heading", { name: "Quote Builder" }).waitFor();
      await shoot(page, problems, outDir, "builder.png");
      await close();
    }

    log("tablet.png");
    {
      // "Hand to Client" ends the staff session it is pressed in: a session of its own.
      const quoteId = await quoteOf(store, maria, TABLET_CLIENT);
      const { page, problems, close } = await open(
        SHOTS["tablet.png"],
        await signIn(OPTICIAN),
        true,
      );
      await visit(page, `/quote/${quoteId}`);
      await page.getByRole("button", { name: "Hand to Client" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Hand to Client" }).click();
      await page.waitForURL(`**/tablet/${quoteId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("checkbox", { name: "Everyday pair", exact: true }).tap();
      await page.getByTestId("selection-count").filter({ hasText: "1 option selected" }).waitFor();
      await page.evaluate(() => globalThis.scrollTo(0, 0));
      await shoot(page, problems, outDir, "tablet.png");
      await close();
    }

    log("online-acceptance.png");
    {
      const quoteId = await quoteOf(store, maria, ONLINE_CLIENT);
      await must(store, 200, "POST", `/api/quotes/${quoteId}/email`, {
        cookie: maria,
        body: { email: ONLINE_EMAIL, note: "" },
      });
      const link = onlineLinkIn(store.smtp.received, ONLINE_EMAIL);
      if (!link) throw new Error("the quote e-mail carried no online link");
      const { page, problems, close } = await open(SHOTS["online-acceptance.png"]);
      await visit(page, link);
      await page.getByRole("checkbox", { name: "Everyday pair", exact: true }).click();
      await page.getByTestId("selection-count").filter({ hasText: "1 option selected" }).waitFor();
      await shoot(page, problems, outDir, "online-acceptance.png");
      await close();
    }

    log("order.png");
    {
      // Ethan's quote is the demo's second store's: the admin works in both
      // (a job is moved on by the staff of its stores only).
      const quoteId = await quoteOf(store, maria, ORDER_CLIENT);
      const quote = await must<QuoteBundle>(store, 200, "GET", `/api/quotes/${quoteId}`, {
        cookie: admin,
      });
      const order = await must<OrderBundle>(
        store,
        201,
        "POST",
        `/api/quotes/${quoteId}/order`,
        { cookie: admin, body: { labId: lab.id, optionIds: quote.options.map((o) => o.id) } },
      );
      const [first] = order.jobs;
      await must(store, 200, "POST", `/api/jobs/${first.id}/step`, {
        cookie: admin,
        body: { to: "SENT_TO_LAB", version: first.version },
      });
      await must(store, 201, "POST", `/api/orders/${order.order.id}/payments`, {
        cookie: admin,
        body: { amount: "150.00", method: "CARD", note: "Deposit" },
      });
      const { page, problems, close } = await open(SHOTS["order.png"], admin);
      await visit(page, `/orders/${order.order.id}`);
      await shoot(page, problems, outDir, "order.png");
      await close();
    }
  } catch (err) {
    if (store?.appErrors.length) console.error(`The app's stderr:\n${store.appErrors.join("\n")}`);
    throw err;
  } finally {
    await browser?.close();
    await store?.close();
  }
  return Object.keys(SHOTS).map((name) => join(outDir, name));
}

if (import.meta.main) {
  const outDir = Deno.args[0] ?? DEFAULT_OUT_DIR;
  const started = performance.now();
  const made = await takeScreenshots(outDir, (line) => console.log(`screenshots: ${line}`));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`screenshots: ${made.length} pictures in ${outDir} (${seconds} s)`);
}
