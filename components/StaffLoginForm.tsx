import { OWNER_INTENT } from "../src/schemas/auth.ts";

export interface StaffLoginFormProps {
  /** Already checked with safeReturnTo; carried through the form as a hidden field. */
  returnTo?: string;
  ownerSignInConfigured: boolean;
  /** The username typed before a refused attempt (never the password). */
  username?: string;
  /** Why the last plain-form attempt was refused, shown above the fields. */
  error?: { title: string; description: string };
}

/**
 * The staff sign-in as a plain HTML form: it posts to /staff and works with no
 * JavaScript at all. islands/_sign_in.ts enhances it when scripts run (the
 * show/hide toggle, Signing In..., the spec's toasts) without changing its
 * markup, so a later step (another field, a link) is added here only.
 */
export function StaffLoginForm(
  { returnTo, ownerSignInConfigured, username, error }: StaffLoginFormProps,
) {
  // intent=owner is what sends /api/login on to the provider (see routes/api/auth.ts).
  const ownerParams = new URLSearchParams({ intent: OWNER_INTENT });
  if (returnTo) ownerParams.set("returnTo", returnTo);
  const ownerHref = `/api/login?${ownerParams}`;
  return (
    <form className="stack" method="post" action="/staff" data-sign-in-form noValidate>
      {error && (
        <div className="notice notice-error" role="alert" data-sign-in-error>
          <strong>{error.title}</strong> {error.description}
        </div>
      )}
      {returnTo && <input type="hidden" name="returnTo" value={returnTo} />}
      <div className="field">
        <label htmlFor="username">Username</label>
        <input
          id="username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={username}
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <div className="input-with-action">
          <input id="password" name="password" type="password" autoComplete="current-password" />
          {/* Needs a script to work, so it stays hidden until one runs. */}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-pressed="false"
            aria-label="Show password"
            data-password-toggle
            hidden
          >
            Show
          </button>
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-block">Sign In</button>
      <a className="link center" href="/forgot-password">Forgot your password?</a>
      <div className="divider" role="separator">
        <span>or</span>
      </div>
      <a className="btn btn-outline btn-block" href={ownerHref}>Owner Login</a>
      {!ownerSignInConfigured && (
        <p className="hint center">Owner sign-in is not configured on this store.</p>
      )}
    </form>
  );
}
