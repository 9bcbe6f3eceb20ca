import type { KioskKind } from "../../db/schema.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { editBlocker } from "../quotes/rules.ts";

/**
 * Everything a kiosk session may request; the gate refuses all the rest
 * (API: 403, pages: the kiosk notice). An allow-list, so a route added later
 * is out of the kiosk's reach until someone puts it here on purpose. Paths are
 * compared as sent: an encoded or differently cased id is simply refused.
 *
 * The writes listed here are further limited by their handlers
 * (routes/api/kiosk.ts): one selection save or one intake, then consent
 * records for that intake's client only.
 */
export function kioskMayRequest(
  kiosk: { kind: KioskKind; quoteId: string | null },
  method: string,
  path: string,
): boolean {
  const m = method === "HEAD" ? "GET" : method;
  // Handing the tablet back to staff (needs a staff password).
  if (m === "POST" && path === "/api/kiosk/return") return true;
  if (kiosk.kind === "QUOTE") {
    const quote = kiosk.quoteId;
    if (!quote) return false;
    if (m === "GET") {
      return path === `/tablet/${quote}` ||
        // The thank-you's Print Client Copy: the client copy of this quote only.
        path === `/quote/${quote}/client-print` ||
        // The tablet reloads its quote after a refused save (client-safe view).
        path === "/api/kiosk/quote";
    }
    // The selection save of this one quote.
    return m === "PUT" && path === `/api/quotes/${quote}`;
  }
  if (m === "GET") {
    return path === "/intake" || path === "/api/settings" || path === "/api/heard-how-options";
  }
  return m === "POST" && (path === "/api/clients" || path === "/api/consent");
}

/**
 * Why a quote cannot be handed to a client, or null when it can: the client
 * must be able to confirm on it (not closed, finalized or expired) and it must
 * have been saved at least once (a DRAFT has no options worth choosing).
 */
export function handOverBlocker(quote: { status: QuoteStatus; isExpired: boolean }): string | null {
  const blocker = editBlocker(quote.status);
  if (blocker) return blocker;
  if (quote.isExpired) {
    return "Reactivate this expired quote before handing it to the client.";
  }
  if (quote.status === "DRAFT") return "Save the quote before handing it to the client.";
  return null;
}
