// The client's signed copy of a quote accepted online: a thank-you, what is
// attached, and how to reach the store.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { P } from "./parts.tsx";

export function composeSignedCopyEmail(
  branding: MailBranding,
  input: { quoteNumber: string; signerName: string },
): ComposedEmail {
  const dear = `Dear ${input.signerName},`;
  const thanks = `Thank you for accepting quote ${input.quoteNumber} online. Your signed copy ` +
    "is attached as a PDF; please keep it for your records.";
  const next = "We will be in touch about the next steps. Questions? Reply to this e-mail or " +
    "call us.";
  // The text part signs with the store's name, phone and e-mail; the HTML part with the layout's
  // foot, which has them.
  const signature = [branding.storeName, branding.storePhone, branding.storeEmail].join("\n");
  return renderMail(branding, {
    subject: `Your signed quote ${input.quoteNumber} from ${branding.storeName}`,
    text: [dear, thanks, next, signature].join("\n\n"),
    body: (
      <>
        <P text={dear} />
        <P text={thanks} />
        <P text={next} />
      </>
    ),
  });
}
