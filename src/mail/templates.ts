import type { QuoteBundle } from "../quotes/views.ts";
import type { MailSettings } from "./mail_settings.ts";
import type { Branding } from "../settings/settings.ts";

/** Replaces {store}, {client}, {quoteNumber} and {optician}; unknown names stay as typed. */
export function fillTemplate(template: string, vars: Record<string, string>): string {
  // Own names only: "{constructor}" in an admin's template is text, not Object.
  return template.replace(
    /\{(\w+)\}/g,
    (whole, name) => Object.hasOwn(vars, name) ? vars[name] : whole,
  );
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

const paragraphs = (text: string) =>
  text.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join("\n");

export const ONLINE_LINK_TEXT = "View and accept your quote online";

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * The client's e-mail: the store's template, the optician's note, and a short
 * signature. The quote itself travels as the attached client-copy PDF.
 */
export function composeQuoteEmail(
  bundle: QuoteBundle,
  settings: MailSettings,
  store: Pick<
    Branding,
    "storeName" | "storePhone" | "storeEmail" | "storeAddress" | "storeWebsite"
  >,
  note: string,
  /** The quote's online link (`${APP_URL}/q/{token}`), when it may be accepted online. */
  onlineUrl?: string,
): ComposedEmail {
  const vars = {
    store: store.storeName,
    client: `${bundle.client.firstName} ${bundle.client.lastName}`.trim(),
    quoteNumber: bundle.quote.quoteNumber,
    optician: bundle.quote.opticianName,
  };
  const subject = fillTemplate(settings.subjectTemplate, vars).replace(/[\r\n]+/g, " ");
  const body = fillTemplate(settings.bodyTemplate, vars);
  // The store's whole contact line (fallbacks included), so a client can reply or call.
  const signature = [
    store.storeName,
    store.storeAddress,
    store.storePhone,
    store.storeEmail,
    store.storeWebsite,
  ].filter(Boolean);
  const text = [
    `Dear ${vars.client},`,
    body,
    note.trim(),
    `Quote ${vars.quoteNumber} is attached as a PDF.`,
    onlineUrl ? `${ONLINE_LINK_TEXT}:\n${onlineUrl}` : "",
    signature.join("\n"),
  ].filter(Boolean).join("\n\n");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1d2428">
${paragraphs(`Dear ${vars.client},`)}
${paragraphs(body)}
${note.trim() ? paragraphs(note.trim()) : ""}
${paragraphs(`Quote ${vars.quoteNumber} is attached as a PDF.`)}
${
    onlineUrl
      ? `<p><a href="${escapeHtml(onlineUrl)}" style="font-weight:bold">${ONLINE_LINK_TEXT}</a></p>`
      : ""
  }
${paragraphs(signature.join("\n"))}
</body></html>`;
  return { subject, html, text };
}
