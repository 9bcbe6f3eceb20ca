// Tells the store that a client answered a quote online: accepted (by whom)
// or declined (with their message), and where the quote is.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { P, WebLink } from "./parts.tsx";

export type OnlineAnswer =
  | { kind: "accepted"; signerName: string }
  | { kind: "declined"; message: string };

export function composeOnlineAnswerEmail(
  branding: MailBranding,
  input: { quoteNumber: string; clientName: string; quoteUrl: string; answer: OnlineAnswer },
): ComposedEmail {
  const { answer } = input;
  const what = answer.kind === "accepted"
    ? `Quote ${input.quoteNumber} for ${input.clientName} was accepted online by ` +
      `${answer.signerName}. It is now finalized; the signed copy is with the quote.`
    : `Quote ${input.quoteNumber} for ${input.clientName} was declined online. ` +
      "The quote stays open for you to act on.";
  const wrote = answer.kind === "declined"
    ? (answer.message ? `The client wrote: "${answer.message}"` : "The client left no message.")
    : "";
  const open = "Open the quote:";
  return renderMail(branding, {
    subject: answer.kind === "accepted"
      ? `Quote ${input.quoteNumber} accepted online by ${answer.signerName}`
      : `Quote ${input.quoteNumber} declined online`,
    text: [what, wrote, `${open} ${input.quoteUrl}`, branding.storeName].filter(Boolean)
      .join("\n\n"),
    body: (
      <>
        <P text={what} />
        {wrote && <P text={wrote} />}
        <p style={{ margin: "16px 0" }}>
          {open} <WebLink url={input.quoteUrl} />
        </p>
      </>
    ),
  });
}
