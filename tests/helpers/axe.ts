import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * The rules every axe run of the suite applies: WCAG 2.0, 2.1 and 2.2, levels
 * A and AA. wcag22aa brings target-size (2.5.8: a target 24×24 CSS px at
 * least, or that far from the next); the suite used to leave 2.2 out.
 */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * axe-core's serious and critical findings on the page as it is now (the
 * AXE_TAGS rules), as "rule: target" lines; empty when there are none.
 *
 * Run as axe.run() in the page (AxeBuilder's legacy mode): its default runs
 * axe in each frame and then merges the results in a new blank page of the
 * context, axe-core compiled there again, which made a scan take twice as long
 * (2.0-2.4 s against 1.0-1.1 s on the builder, the same findings). Legacy mode
 * skips cross-origin frames only, and no page of the app has a frame.
 */
export async function seriousA11yViolations(page: Page, include?: string): Promise<string[]> {
  await animationsSettled(page);
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode();
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${v.help})`));
}

/**
 * Waits for the page's finite CSS animations and transitions to end (a toast
 * fading in, a dialog sliding up): scanned halfway, a half-transparent text
 * fails colour contrast, and on a busy machine halfway lasts longer. Endless
 * ones (a spinner) are not waited for; the wait is bounded all the same.
 */
export async function animationsSettled(page: Page, limitMs = 5_000): Promise<void> {
  await page.evaluate((limit) =>
    Promise.race([
      Promise.all(
        document.getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, limit)),
    ]), limitMs);
}
