import type { ComposedEmail } from "./templates.ts";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/**
 * Tells a staff member that an owner reset their two-factor sign-in: who did
 * it, what changed, and what to do when they did not ask for it.
 */
export function composeTwoFactorResetEmail(input: {
  storeName: string;
  name: string;
  username: string;
  /** The owner's name as the mail shows it. */
  resetBy: string;
  appUrl: string;
}): ComposedEmail {
  const lines = [
    `Hello ${input.name},`,
    `${input.resetBy} reset the two-factor sign-in of your ${input.storeName} staff account ` +
    `(username: ${input.username}). Your authenticator app and your recovery codes no longer ` +
    "work for it, and you were signed out everywhere.",
    "Sign in again with your password; if the store requires two-factor sign-in you will be " +
    `asked to set it up again: ${new URL("/staff", input.appUrl)}`,
    `If you did not ask for this, tell ${input.resetBy} or another owner of the store at once.`,
    input.storeName,
  ];
  const subject = `Your ${input.storeName} two-factor sign-in was reset`.replace(/[\r\n]+/g, " ");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1d2428">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n")}
</body></html>`;
  return { subject, html, text: lines.join("\n\n") };
}
