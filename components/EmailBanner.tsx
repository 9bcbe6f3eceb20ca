export const EMAIL_BANNER_COOKIE = "lensdesk_email_banner";

/**
 * For ADMIN and OWNER while e-mail is not configured. Dismissing is a plain
 * form post (no JavaScript) that hides the banner until the browser closes.
 */
export function EmailBanner({ returnTo }: { returnTo: string }) {
  return (
    <div className="email-banner" role="region" aria-label="Email configuration">
      <div className="email-banner-inner">
        <p>
          Email is not configured. Quote emailing is disabled until email settings are configured.
        </p>
        <a className="btn btn-sm email-banner-action" href="/admin/settings">Configure Email</a>
        <form method="post" action="/api/email-banner/dismiss">
          <input type="hidden" name="returnTo" value={returnTo} />
          <button type="submit" className="email-banner-dismiss" aria-label="Dismiss">×</button>
        </form>
      </div>
    </div>
  );
}
