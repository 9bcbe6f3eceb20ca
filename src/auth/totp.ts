// TOTP (RFC 6238) through @oslojs/otp: 30-second steps, 6 digits, SHA-1 (what
// every authenticator app reads from an otpauth:// URI). Pure.
import { createTOTPKeyURI, verifyHOTP } from "@oslojs/otp";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { renderSVG } from "uqr";

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that are accepted (clock drift, a code typed as it changes). */
export const TOTP_WINDOW = 1;

/** 160 random bits, the size RFC 4226 recommends for HMAC-SHA-1. */
export function newTotpKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(20));
}

export const currentStep = (nowMs: number) => BigInt(Math.floor(nowMs / 1000 / TOTP_PERIOD_S));

/**
 * The time step a code belongs to, within ±TOTP_WINDOW of now and after
 * `lastStep` (a step already used, or older, is never accepted again); null
 * when it matches none.
 */
export function matchTotpStep(
  key: Uint8Array,
  code: string,
  nowMs: number,
  lastStep: bigint | null,
): bigint | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = currentStep(nowMs);
  for (let offset = -TOTP_WINDOW; offset <= TOTP_WINDOW; offset++) {
    const step = now + BigInt(offset);
    if (lastStep !== null && step <= lastStep) continue;
    if (verifyHOTP(key, step, TOTP_DIGITS, code)) return step;
  }
  return null;
}

export function totpUri(key: Uint8Array, issuer: string, account: string): string {
  return createTOTPKeyURI(issuer, account, key, TOTP_PERIOD_S, TOTP_DIGITS);
}

/** The URI as a QR code, an SVG data URL for an <img> (the CSP allows data: images). */
export function totpQrDataUrl(uri: string): string {
  const svg = renderSVG(uri, { border: 2 });
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

/** The key as people type it into an app by hand: base32, in groups of four. */
export function manualKey(key: Uint8Array): string {
  return encodeBase32LowerCaseNoPadding(key).toUpperCase().replace(/(.{4})(?=.)/g, "$1 ");
}

export const RECOVERY_CODE_COUNT = 10;

/** Random bits in each recovery code. */
export const RECOVERY_CODE_BITS = 128;

/**
 * Ten codes of 128 random bits each, as five dash-separated groups of base32
 * ("xxxxx-xxxxx-xxxxx-xxxxx-xxxxxx"). With that many bits the unsalted
 * SHA-256 kept of each is out of reach of guessing, even with the table in
 * hand (codes made before were 50 bits; they still work until used or
 * replaced).
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = encodeBase32LowerCaseNoPadding(
      crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_BITS / 8)),
    );
    return raw.match(/.{1,5}/g)!.join("-").replace(/-(.)$/, "$1");
  });
}

/** What is stored of a recovery code; case, spaces and dashes as typed do not matter. */
export function hashRecoveryCode(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, "");
  return encodeHexLowerCase(sha256(new TextEncoder().encode(normalized)));
}
