// Tells a staff member that an owner reset their two-factor sign-in: who did
// it, what changed, and what to do when they did not ask for it.
import { type ComposedEmail, type MailBranding, renderMail } from "./MailLayout.tsx";
import { P, WebLink } from "./parts.tsx";

/** The staff sign-in page under APP_URL (as typed after it when it cannot be a base). */
function staffUrl(appUrl: string): string {
  try {
    return String(new URL("/staff", appUrl));
  } catch {
    return `${appUrl}/staff`;
  }
}

export function composeTwoFactorResetEmail(
  branding: MailBranding,
  input: {
    name: string;
    username: string;
    /** The owner's name as the mail shows it. */
    resetBy: string;
    appUrl: string;
  },
): ComposedEmail {
  const { storeName } = branding;
  const hello = `Hello ${input.name},`;
  const what = `${input.resetBy} reset the two-factor sign-in of your ${storeName} staff ` +
    `account (username: ${input.username}). Your authenticator app and your recovery codes ` +
    "no longer work for it, and you were signed out everywhere.";
  const again = "Sign in again with your password; if the store requires two-factor sign-in " +
    "you will be asked to set it up again:";
  const signIn = staffUrl(input.appUrl);
  const tell = `If you did not ask for this, tell ${input.resetBy} or another owner of the ` +
    "store at once.";
  return renderMail(branding, {
    subject: `Your ${storeName} two-factor sign-in was reset`,
    text: [hello, what, `${again} ${signIn}`, tell, storeName].join("\n\n"),
    body: (
      <>
        <P text={hello} />
        <P text={what} />
        <p style={{ margin: "16px 0" }}>
          {again} <WebLink url={signIn} />
        </p>
        <P text={tell} />
      </>
    ),
  });
}
