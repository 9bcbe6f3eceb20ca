// The password-reset mail: who it is for, the link, how long it works, and
// what to do when the reader did not ask for it.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { P, WebLink } from "./parts.tsx";

/** What the stored copy of a sent reset mail says instead of the link. */
export const REDACTED_RESET_BODY = "[password reset e-mail: the link was removed after sending]";

export function composePasswordResetEmail(
  branding: MailBranding,
  input: {
    name: string;
    username: string;
    link: string;
    minutes: number;
    /** "you" for a forgotten password; the admin's name when one sent it. */
    requestedBy?: string;
  },
): ComposedEmail {
  const { storeName } = branding;
  const who = input.requestedBy
    ? `${input.requestedBy} asked for a password reset for your ${storeName} staff account`
    : `Someone (hopefully you) asked to reset the password of your ${storeName} staff account`;
  const hello = `Hello ${input.name},`;
  const asked = `${who} (username: ${input.username}).`;
  const expiry = `The link works once, for ${input.minutes} minutes. If you did not ask for ` +
    "this, ignore this e-mail: your password stays as it is.";
  return renderMail(branding, {
    subject: `Reset your ${storeName} password`,
    text: [hello, asked, `Choose a new password here:\n${input.link}`, expiry, storeName]
      .join("\n\n"),
    body: (
      <>
        <P text={hello} />
        <P text={asked} />
        <p style={{ margin: "16px 0" }}>
          <WebLink url={input.link} label="Choose a new password" bold />
        </p>
        <p style={{ margin: "16px 0", fontSize: "13px", color: "#5d6870" }}>
          Or copy this address into your browser:<br />
          {input.link}
        </p>
        <P text={expiry} />
      </>
    ),
  });
}
