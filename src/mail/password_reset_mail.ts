import type { ComposedEmail } from "./templates.ts";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/** What the stored copy of a sent reset mail says instead of the link. */
export const REDACTED_RESET_BODY = "[password reset e-mail: the link was removed after sending]";

/**
 * The password-reset mail: who it is for, the link, how long it works, and
 * what to do when the reader did not ask for it.
 */
export function composePasswordResetEmail(input: {
  storeName: string;
  name: string;
  username: string;
  link: string;
  minutes: number;
  /** "you" for a forgotten password; the admin's name when one sent it. */
  requestedBy?: string;
}): ComposedEmail {
  const who = input.requestedBy
    ? `${input.requestedBy} asked for a password reset for your ${input.storeName} staff account`
    : `Someone (hopefully you) asked to reset the password of your ${input.storeName} staff account`;
  const lines = [
    `Hello ${input.name},`,
    `${who} (username: ${input.username}).`,
    `Choose a new password here:\n${input.link}`,
    `The link works once, for ${input.minutes} minutes. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
    input.storeName,
  ];
  const subject = `Reset your ${input.storeName} password`.replace(/[\r\n]+/g, " ");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1d2428">
<p>${escapeHtml(lines[0])}</p>
<p>${escapeHtml(lines[1])}</p>
<p><a href="${escapeHtml(input.link)}">Choose a new password</a></p>
<p style="font-size:13px;color:#555">Or copy this address into your browser:<br>${
    escapeHtml(input.link)
  }</p>
<p>${escapeHtml(lines[3])}</p>
<p>${escapeHtml(lines[4])}</p>
</body></html>`;
  return { subject, html, text: lines.join("\n\n") };
}
