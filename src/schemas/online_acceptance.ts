import * as z from "zod";
import { multilineText, safeText, uuidField, visibleLetters } from "./text.ts";

/** The signature pad's PNG, as a data URL; the server caps its bytes and pixels again. */
export const SIGNATURE_DATA_URL_PREFIX = "data:image/png;base64,";
/** About 200 KB of PNG once decoded: a pad signature is 5–30 KB. */
export const MAX_SIGNATURE_DATA_URL = 280_000;

export const TERMS_REQUIRED = "Please accept the store's terms to continue.";
export const NAME_REQUIRED = "Please type your full name.";
export const SIGNATURE_REQUIRED = "Please sign in the box, or choose to sign with your typed name.";

/**
 * POST /q/{token}/accept. The chosen options follow the tablet's rule: one
 * or more of the quote's options. Either a drawn signature (PNG) or the typed
 * name as the signature, for keyboard and screen-reader users.
 */
export const onlineAcceptSchema = z.object({
  chosenOptionIds: z.array(uuidField()).max(20).refine((ids) => ids.length > 0, {
    message: "Please select at least one option",
  }),
  // A name, as the signature: two letters at least that show (not spaces,
  // zero-width or filler characters, which print as nothing on the copy).
  signerName: safeText({ error: NAME_REQUIRED, trim: true }).min(2, NAME_REQUIRED).max(
    120,
    "Your name must be at most 120 characters",
  ).refine((name) => visibleLetters(name) >= 2, NAME_REQUIRED),
  signaturePng: safeText().max(MAX_SIGNATURE_DATA_URL, "The signature image is too large")
    .refine((s) => s.startsWith(SIGNATURE_DATA_URL_PREFIX), "The signature must be a PNG image")
    .nullish().transform((v) => v ?? null),
  typedSignature: z.boolean().default(false),
  termsAccepted: z.literal(true, { error: TERMS_REQUIRED }),
}).refine((a) => a.typedSignature || a.signaturePng !== null, {
  message: SIGNATURE_REQUIRED,
  path: ["signaturePng"],
});
export type OnlineAcceptInput = z.infer<typeof onlineAcceptSchema>;

/** POST /q/{token}/decline: an optional message to the store. */
export const onlineDeclineSchema = z.object({
  message: multilineText({ trim: true }).max(2000, "Your message must be at most 2000 characters")
    .optional().transform((v) => v ?? ""),
});
