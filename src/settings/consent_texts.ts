import type { DB } from "../db/database.ts";
import type { ConsentTexts } from "../clients/views.ts";
import { STORE_FALLBACKS } from "./settings.ts";

/** The wording shown when the store has not written its own. */
export function defaultConsentTexts(storeName: string): ConsentTexts {
  return {
    smsConsentText: `I agree to receive text messages from ${storeName} about my orders, ` +
      "appointments and eyewear. Message and data rates may apply. Reply STOP to opt out.",
    emailConsentText: `I agree to receive emails from ${storeName} about my orders, ` +
      "appointments and offers. I can unsubscribe at any time.",
  };
}

export async function findConsentTexts(db: DB): Promise<ConsentTexts> {
  const s = await db.selectFrom("settings")
    .select(["storeName", "smsConsentText", "emailConsentText"])
    .where("id", "=", 1).executeTakeFirstOrThrow();
  const defaults = defaultConsentTexts(s.storeName?.trim() || STORE_FALLBACKS.storeName);
  return {
    smsConsentText: s.smsConsentText?.trim() || defaults.smsConsentText,
    emailConsentText: s.emailConsentText?.trim() || defaults.emailConsentText,
  };
}
