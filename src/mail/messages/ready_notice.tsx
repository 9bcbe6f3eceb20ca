// The client's "your glasses are ready" e-mail: the store's template
// (Settings), or the built-in words, filled with the job's values.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { fillTemplate, Paragraphs } from "./parts.tsx";

export const READY_SUBJECT_DEFAULT = "Your glasses are ready";
export const READY_BODY_DEFAULT = "Hello {firstName},\n\n" +
  "Your glasses (job {jobNumber}) are ready for pickup at {storeName}, {storeAddress}.\n\n" +
  "Our hours: {storeHours}\n\nSee you soon,\n{storeName}";

export function composeReadyNotice(
  branding: MailBranding,
  template: { subject: string | null; body: string | null },
  values: { firstName: string; jobNumber: string; storeHours: string },
): ComposedEmail {
  // The store the glasses wait in (the job's pickup store): its name and address.
  const vars = { ...values, storeName: branding.storeName, storeAddress: branding.storeAddress };
  const text = fillTemplate(template.body?.trim() || READY_BODY_DEFAULT, vars);
  return renderMail(branding, {
    subject: fillTemplate(template.subject?.trim() || READY_SUBJECT_DEFAULT, vars),
    text,
    body: <Paragraphs text={text} />,
  });
}
