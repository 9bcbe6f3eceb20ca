// The one frame of every e-mail the app sends: the store's name at the top,
// the message, and the store's contact block at the foot (what the client
// copy and the PDF print: name, address, phone, e-mail, web site). Rendered
// by React to static HTML, so every value is escaped by construction; links
// made from data go through safeHttpUrl / mailtoHref (parts.tsx) and are
// plain text when they are not a web or mail address.
//
// No logo: the messages never carried one, the built-in logo is an SVG
// (which Gmail and Outlook do not show), an image needs APP_URL to be
// reachable from the reader's mail client, and most clients block remote
// images; the store's name is the heading instead.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Branding } from "../../settings/settings.ts";
import { mailtoHref, oneLine, websiteHref } from "./parts.tsx";

/** What the layout prints of the store (findBranding's, fallbacks included). */
export type MailBranding = Pick<
  Branding,
  "storeName" | "storeAddress" | "storePhone" | "storeEmail" | "storeWebsite"
>;

/** A message ready for the outbox: its subject (one line), HTML and plain-text parts. */
export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

const INK = "#1d2428";
const MUTED = "#5d6870";
const PRIMARY = "#1f4e5f";
const BORDER = "#e0dbd0";
const FONT = "Arial,Helvetica,sans-serif";

function Contact({ branding }: { branding: MailBranding }) {
  const { storeName, storeAddress, storePhone, storeEmail, storeWebsite } = branding;
  const email = mailtoHref(storeEmail);
  const website = websiteHref(storeWebsite);
  const reach: ReactNode[] = [
    storePhone && <span key="phone">{storePhone}</span>,
    storeEmail &&
    (email
      ? <a key="email" href={email} style={{ color: PRIMARY }}>{storeEmail}</a>
      : <span key="email">{storeEmail}</span>),
    storeWebsite &&
    (website
      ? <a key="web" href={website} style={{ color: PRIMARY }}>{storeWebsite}</a>
      : <span key="web">{storeWebsite}</span>),
  ].filter(Boolean);
  return (
    <p style={{ margin: 0 }}>
      <strong style={{ color: INK }}>{storeName}</strong>
      {storeAddress && (
        <>
          <br />
          {storeAddress}
        </>
      )}
      {reach.length > 0 && (
        <>
          <br />
          {reach.flatMap((part, i) => i === 0 ? [part] : [" · ", part])}
        </>
      )}
    </p>
  );
}

/** The document around a message's body: the store's name, the body, the contact block. */
export function MailLayout(
  { branding, title, children }: { branding: MailBranding; title: string; children: ReactNode },
) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: "#f6f4ef" }}>
        <table
          role="presentation"
          width="100%"
          cellPadding={0}
          cellSpacing={0}
          style={{ backgroundColor: "#f6f4ef" }}
        >
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width="600"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{
                    width: "100%",
                    maxWidth: "600px",
                    backgroundColor: "#ffffff",
                    border: `1px solid ${BORDER}`,
                    fontFamily: FONT,
                    color: INK,
                  }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{
                          padding: "16px 24px",
                          backgroundColor: PRIMARY,
                          color: "#ffffff",
                          fontSize: "20px",
                          fontWeight: "bold",
                        }}
                      >
                        {branding.storeName}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "8px 24px 16px", fontSize: "15px", lineHeight: 1.5 }}>
                        {children}
                      </td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          padding: "16px 24px",
                          borderTop: `1px solid ${BORDER}`,
                          fontSize: "13px",
                          lineHeight: 1.5,
                          color: MUTED,
                        }}
                      >
                        <Contact branding={branding} />
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

/**
 * A message from its parts: the subject made one line (no header can be
 * smuggled in by a value), the body in the layout as an HTML document, and
 * the plain-text part as the message wrote it from the same data.
 */
export function renderMail(
  branding: MailBranding,
  mail: { subject: string; text: string; body: ReactNode },
): ComposedEmail {
  const subject = oneLine(mail.subject);
  const html = "<!doctype html>" +
    renderToStaticMarkup(
      <MailLayout branding={branding} title={subject}>{mail.body}</MailLayout>,
    );
  return { subject, html, text: mail.text };
}
