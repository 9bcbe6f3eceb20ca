import type { ComposedEmail } from "./templates.ts";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

export type OnlineAnswer =
  | { kind: "accepted"; signerName: string }
  | { kind: "declined"; message: string };

/**
 * Tells the store that a client answered a quote online: accepted (by whom)
 * or declined (with their message), and where the quote is.
 */
export function composeOnlineAnswerEmail(input: {
  storeName: string;
  quoteNumber: string;
  clientName: string;
  quoteUrl: string;
  answer: OnlineAnswer;
}): ComposedEmail {
  const { answer } = input;
  const what = answer.kind === "accepted"
    ? `Quote ${input.quoteNumber} for ${input.clientName} was accepted online by ` +
      `${answer.signerName}. It is now finalized; the signed copy is with the quote.`
    : `Quote ${input.quoteNumber} for ${input.clientName} was declined online. ` +
      "The quote stays open for you to act on.";
  const lines = [
    what,
    answer.kind === "declined"
      ? (answer.message ? `The client wrote: "${answer.message}"` : "The client left no message.")
      : "",
    `Open the quote: ${input.quoteUrl}`,
    input.storeName,
  ].filter(Boolean);
  const subject =
    (answer.kind === "accepted"
      ? `Quote ${input.quoteNumber} accepted online by ${answer.signerName}`
      : `Quote ${input.quoteNumber} declined online`).replace(/[\r\n]+/g, " ");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1d2428">
${lines.map((l) => `<p>${escapeHtml(l).replace(/\n/g, "<br>")}</p>`).join("\n")}
</body></html>`;
  return { subject, html, text: lines.join("\n\n") };
}

/** The client's signed copy: a thank-you, what is attached, and how to reach the store. */
export function composeSignedCopyEmail(input: {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  quoteNumber: string;
  signerName: string;
}): ComposedEmail {
  const lines = [
    `Dear ${input.signerName},`,
    `Thank you for accepting quote ${input.quoteNumber} online. Your signed copy is attached ` +
    "as a PDF; please keep it for your records.",
    "We will be in touch about the next steps. Questions? Reply to this e-mail or call us.",
    [input.storeName, input.storePhone, input.storeEmail].join("\n"),
  ];
  const subject = `Your signed quote ${input.quoteNumber} from ${input.storeName}`
    .replace(/[\r\n]+/g, " ");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1d2428">
${lines.map((l) => `<p>${escapeHtml(l).replace(/\n/g, "<br>")}</p>`).join("\n")}
</body></html>`;
  return { subject, html, text: lines.join("\n\n") };
}
