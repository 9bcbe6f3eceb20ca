import { describe, it } from "node:test";
import { expect } from "expect";
import { generateHOTP } from "@oslojs/otp";
import {
  currentStep,
  hashRecoveryCode,
  manualKey,
  matchTotpStep,
  newRecoveryCodes,
  totpQrDataUrl,
  totpUri,
} from "./totp.ts";

// RFC 6238 appendix B, SHA-1 key "12345678901234567890": at T=59 s the 8-digit
// code is 94287082, so the 6-digit one is its last six digits.
const RFC_KEY = new TextEncoder().encode("12345678901234567890");

describe("matchTotpStep", () => {
  it("accepts the RFC 6238 test vector at its step", () => {
    expect(matchTotpStep(RFC_KEY, "287082", 59_000, null)).toBe(1n);
  });

  it("accepts one step either side and no further", () => {
    const now = 1_700_000_000_000;
    const step = currentStep(now);
    for (const offset of [-1n, 0n, 1n]) {
      const code = generateHOTP(RFC_KEY, step + offset, 6);
      expect(matchTotpStep(RFC_KEY, code, now, null)).toBe(step + offset);
    }
    for (const offset of [-2n, 2n]) {
      const code = generateHOTP(RFC_KEY, step + offset, 6);
      // A far step's code may collide with a near one by chance (1 in 10^6): check it does not.
      if ([-1n, 0n, 1n].some((o) => generateHOTP(RFC_KEY, step + o, 6) === code)) continue;
      expect(matchTotpStep(RFC_KEY, code, now, null)).toBeNull();
    }
  });

  it("never accepts a step already used, or an older one", () => {
    const now = 1_700_000_000_000;
    const step = currentStep(now);
    const code = generateHOTP(RFC_KEY, step, 6);
    expect(matchTotpStep(RFC_KEY, code, now, step)).toBeNull();
    expect(matchTotpStep(RFC_KEY, generateHOTP(RFC_KEY, step - 1n, 6), now, step - 1n))
      .toBeNull();
    expect(matchTotpStep(RFC_KEY, generateHOTP(RFC_KEY, step + 1n, 6), now, step)).toBe(step + 1n);
  });

  it("refuses anything but six digits", () => {
    expect(matchTotpStep(RFC_KEY, "28708", 59_000, null)).toBeNull();
    expect(matchTotpStep(RFC_KEY, "2870822", 59_000, null)).toBeNull();
    expect(matchTotpStep(RFC_KEY, "abcdef", 59_000, null)).toBeNull();
  });
});

describe("enrolment material", () => {
  it("makes an otpauth URI, a QR image and a typeable key", () => {
    const uri = totpUri(RFC_KEY, "Clear View", "olga");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Clear%20View:olga\?/);
    expect(uri).toContain("secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(totpQrDataUrl(uri)).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(atob(totpQrDataUrl(uri).split(",")[1])).toContain("<svg");
    expect(manualKey(RFC_KEY)).toBe("GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ");
  });

  it("makes ten distinct recovery codes whose hash ignores case and dashes", () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    // 128 random bits: 26 base32 characters (the last carries 3 bits).
    for (const c of codes) expect(c).toMatch(/^([a-z2-7]{5}-){4}[a-z2-7]{6}$/);
    expect(hashRecoveryCode(codes[0].toUpperCase().replaceAll("-", " "))).toBe(
      hashRecoveryCode(codes[0]),
    );
  });
});
