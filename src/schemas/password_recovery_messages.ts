// The forgotten-password page's words, without zod: the page's small script
// (islands/_forgot_password.ts) shows them, and password_recovery.ts checks with them.

export const EMAIL_REQUIRED = "Please enter your email address";

/** The spec's answer to every accepted forgotten-password request. */
export const FORGOT_PASSWORD_ANSWER =
  "If an account with that email exists, we've sent you instructions to reset your password.";
