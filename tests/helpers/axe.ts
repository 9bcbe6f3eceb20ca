import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * axe-core's serious and critical findings on the page as it is now (WCAG 2.x
 * A and AA rules), as "rule: target" lines; empty when there are none.
 */
export async function seriousA11yViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${v.help})`));
}
