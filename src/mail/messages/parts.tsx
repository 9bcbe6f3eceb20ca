// Small pieces the messages share: text to paragraphs, links that are only
// ever web (or mail) addresses, a template filler and a one-line subject.
import type { ReactNode } from "react";

/** Replaces {store}, {client}, {quoteNumber} and {optician}; unknown names stay as typed. */
export function fillTemplate(template: string, vars: Record<string, string>): string {
  // Own names only: "{constructor}" in an admin's template is text, not Object.
  return template.replace(
    /\{(\w+)\}/g,
    (whole, name) => Object.hasOwn(vars, name) ? vars[name] : whole,
  );
}

/** A subject on one line: a value's line break cannot start a header of its own. */
export const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ");

/**
 * The URL when it is a web address (http or https), else undefined: a link
 * made from data never carries `javascript:`, `data:` or any other scheme.
 */
export function safeHttpUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** The store's web site as a link: as typed with its scheme, or a bare host name over https. */
export function websiteHref(website: string): string | undefined {
  const site = website.trim();
  if (/^https?:\/\//i.test(site)) return safeHttpUrl(site);
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[^\s]*)?$/i.test(site)
    ? safeHttpUrl(`https://${site}`)
    : undefined;
}

/** A `mailto:` link for one plain address, else undefined. */
export function mailtoHref(email: string): string | undefined {
  const address = email.trim();
  return /^[^\s@<>"'(),;:\\]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(address)
    ? `mailto:${address}`
    : undefined;
}

const paragraphStyle = { margin: "16px 0" };

/** One paragraph; its line breaks kept. */
export function P({ text, style }: { text: string; style?: Record<string, string> }) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  return (
    <p style={{ ...paragraphStyle, ...style }}>
      {lines.flatMap((line, i) => i === 0 ? [line] : [<br key={i} />, line])}
    </p>
  );
}

/** Text with blank lines between its paragraphs (a store's template), as paragraphs. */
export function Paragraphs({ text }: { text: string }) {
  const paragraphs = text.replace(/\r\n?/g, "\n").split(/\n{2,}/).filter((p) => p.trim());
  return <>{paragraphs.map((p, i) => <P key={i} text={p} />)}</>;
}

/**
 * A link to `url` reading `label` (the URL itself when no label is given);
 * an address that is not a web address is shown as text, never linked.
 */
export function WebLink(
  { url, label, bold }: { url: string; label?: string; bold?: boolean },
): ReactNode {
  const href = safeHttpUrl(url);
  if (!href) return label ? `${label}: ${url}` : url;
  return (
    <a href={href} style={{ color: "#1f4e5f", ...(bold ? { fontWeight: "bold" } : {}) }}>
      {label ?? url}
    </a>
  );
}
