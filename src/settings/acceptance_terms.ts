/**
 * The terms a client ticks before accepting a quote online (Settings,
 * "Online acceptance terms"); the store's own text, else this one.
 */
export const ACCEPTANCE_TERMS_FALLBACK =
  "I accept the options I selected at the prices shown, valid until the date shown. " +
  "My order is placed with the store once it has my measurements and prescription.";

export const acceptanceTerms = (text: string | null | undefined) =>
  text?.trim() || ACCEPTANCE_TERMS_FALLBACK;
