// The client's quote e-mail: the store's template, the optician's note, the
// quote's online link when it may be accepted online, and the store's
// contact line. The quote itself travels as the attached client-copy PDF.
import type { QuoteBundle } from "../../quotes/views.ts";
import type { MailSettings } from "../mail_settings.ts";
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { fillTemplate, P, Paragraphs, WebLink } from "./parts.tsx";

export const ONLINE_LINK_TEXT = "View and accept your quote online";

export function composeQuoteEmail(
  bundle: Pick<QuoteBundle, "quote" | "client">,
  settings: Pick<MailSettings, "subjectTemplate" | "bodyTemplate">,
  store: MailBranding,
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
  const body = fillTemplate(settings.bodyTemplate, vars);
  const greeting = `Dear ${vars.client},`;
  const attached = `Quote ${vars.quoteNumber} is attached as a PDF.`;
  // The store's whole contact line (fallbacks included), so a client can reply or call;
  // the HTML part has it as the layout's foot.
  const signature = [
    store.storeName,
    store.storeAddress,
    store.storePhone,
    store.storeEmail,
    store.storeWebsite,
  ].filter(Boolean);
  const text = [
    greeting,
    body,
    note.trim(),
    attached,
    onlineUrl ? `${ONLINE_LINK_TEXT}:\n${onlineUrl}` : "",
    signature.join("\n"),
  ].filter(Boolean).join("\n\n");
  return renderMail(store, {
    subject: fillTemplate(settings.subjectTemplate, vars),
    text,
    body: (
      <>
        <P text={greeting} />
        <Paragraphs text={body} />
        <Paragraphs text={note.trim()} />
        <P text={attached} />
        {onlineUrl && (
          <p style={{ margin: "16px 0" }}>
            <WebLink url={onlineUrl} label={ONLINE_LINK_TEXT} bold />
          </p>
        )}
      </>
    ),
  });
}
