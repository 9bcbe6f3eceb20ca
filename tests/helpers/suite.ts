// One fixture for what nearly every API and browser test file needs: the real
// app on its own migrated database (and, for pages, one Chromium; for mail, a
// loopback SMTP server) started before the file's tests and closed after them,
// even when a test failed. The file keeps its own `let app` (and `let
// browser`, `let smtp`) and fills them in `ready`, which also writes the
// file's own data.
import { after, before } from "node:test";
import type { Browser } from "playwright-core";
import { startTestApp, type TestApp } from "./test_app.ts";
import { type SmtpServer, startSmtpServer } from "./smtp.ts";
import type { Logger } from "../../src/http/logger.ts";
import { backgroundSettled } from "../../src/auth/background.ts";

export interface SuiteOptions {
  /** Configuration for the app, as environment variables. */
  env?: Record<string, string>;
  /** Where the app's log lines go (silent when not given). */
  logger?: Logger;
  /** The app's clock, for tests that move time on. */
  clock?: () => Date;
  /** Start a loopback SMTP server too (`started.smtp`). */
  smtp?: boolean;
}

export interface Started {
  app: TestApp;
  /** The loopback SMTP server; only there with `{ smtp: true }`. */
  smtp: SmtpServer;
}

async function start(options: SuiteOptions): Promise<Started> {
  const [app, smtp] = await Promise.all([
    startTestApp(options.env, { logger: options.logger, clock: options.clock }),
    options.smtp ? startSmtpServer() : undefined,
  ]);
  return {
    app,
    get smtp(): SmtpServer {
      if (!smtp) throw new Error("no SMTP server: pass { smtp: true }");
      return smtp;
    },
  };
}

async function stop(started: Partial<Started> | undefined, smtp: boolean) {
  // Mail a request started without waiting for it (a reset link) must not
  // meet a closed database or mail server.
  await backgroundSettled();
  await started?.app?.close();
  if (smtp) await started?.smtp?.close();
}

/** The app for this test file; `ready` receives it before any test runs. */
export function useTestApp(
  ready: (started: Started) => unknown,
  options: SuiteOptions = {},
): void {
  let started: Started | undefined;
  before(async () => {
    started = await start(options);
    await ready(started);
  });
  after(() => stop(started, !!options.smtp));
}

/** The app and one browser for this test file (one Chromium per file, not per test). */
export function useBrowserApp(
  ready: (started: Started & { browser: Browser }) => unknown,
  options: SuiteOptions = {},
): void {
  let started: (Started & { browser: Browser }) | undefined;
  before(async () => {
    // Loaded here, not above: playwright-core is ~0.5 s of CPU to load, in every API file
    // that imports this fixture and never opens a page.
    const { launchBrowser } = await import("./browser.ts");
    const [base, browser] = await Promise.all([start(options), launchBrowser()]);
    started = Object.assign(base, { browser });
    await ready(started);
  });
  after(async () => {
    await started?.browser.close();
    await stop(started, !!options.smtp);
  });
}
