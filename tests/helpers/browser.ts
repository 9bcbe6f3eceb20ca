import { type Browser, chromium } from "playwright-core";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

export const TABLET_PORTRAIT = { width: 768, height: 1024 };
export const TABLET_LANDSCAPE = { width: 1024, height: 768 };
export const DESKTOP = { width: 1280, height: 800 };

/** Where screenshots go when SCREENSHOT_DIR is set (for looking at pages by eye). */
export function screenshotPath(name: string): string | undefined {
  const dir = Deno.env.get("SCREENSHOT_DIR");
  return dir ? `${dir}/${name}.png` : undefined;
}
