import { FORGOT_PASSWORD_ANSWER } from "../src/schemas/password_recovery_messages.ts";

export interface ForgotPasswordFormProps {
  /** The address typed before a refused plain-form attempt. */
  email?: string;
  /** Why the address was refused, under the field. */
  fieldError?: string;
  /** Why the request was refused as a whole (too many requests). */
  error?: string;
}

/**
 * /forgot-password as a plain HTML form: it posts to /forgot-password and
 * works with no JavaScript. islands/_forgot_password.ts enhances it (the
 * spec's toasts, Sending..., no page load) without changing its markup.
 */
export function ForgotPasswordForm({ email, fieldError, error }: ForgotPasswordFormProps) {
  return (
    <form className="stack" method="post" action="/forgot-password" data-forgot-form noValidate>
      {error && <div className="notice notice-error" role="alert">{error}</div>}
      <div className="field field-wide">
        <label htmlFor="forgot-email">Email</label>
        <input
          id="forgot-email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={email}
          autoFocus
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? "forgot-email-error" : undefined}
        />
        <p id="forgot-email-error" className="field-error" hidden={!fieldError}>
          {fieldError}
        </p>
      </div>
      <button type="submit" className="btn btn-primary btn-block">Send Reset Instructions</button>
      <a className="link center" href="/staff">Back to Sign In</a>
    </form>
  );
}

/** What every accepted request shows, whatever the address: nothing tells accounts apart. */
export function ForgotPasswordSent() {
  return (
    <div className="stack" role="status" data-forgot-sent>
      <h2 className="card-title">Check Your Email</h2>
      <p>{FORGOT_PASSWORD_ANSWER}</p>
      <p className="hint">The link works once, for 30 minutes.</p>
      <a className="btn btn-primary btn-block" href="/staff">Back to Sign In</a>
    </div>
  );
}
