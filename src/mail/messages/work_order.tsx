// The work order to a lab: which jobs, the store's account with the lab, and
// that the order is attached as a PDF.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { P } from "./parts.tsx";

export function composeWorkOrderEmail(
  branding: MailBranding,
  input: { jobNumbers: string[]; accountNumber: string | null },
): ComposedEmail {
  const jobs = input.jobNumbers.join(", ");
  const what = `Work order ${jobs} from ${branding.storeName} ` +
    `(account ${input.accountNumber || "—"}). The order is attached, one sheet per job.`;
  return renderMail(branding, {
    subject: `Work order ${jobs} · ${branding.storeName}`,
    text: `${what}\n\n${branding.storeName} · ${branding.storePhone}`,
    body: <P text={what} />,
  });
}
