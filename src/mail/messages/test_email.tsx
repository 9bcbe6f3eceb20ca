// The test message an admin sends from Settings to see that mail works.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { P } from "./parts.tsx";

export function composeTestEmail(branding: MailBranding): ComposedEmail {
  const text = `This is a test message from ${branding.storeName}. Quote emails are working.`;
  return renderMail(branding, {
    subject: `Test email from ${branding.storeName}`,
    text,
    body: <P text={text} />,
  });
}
