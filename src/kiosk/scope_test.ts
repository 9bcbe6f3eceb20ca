import { describe, it } from "node:test";
import { expect } from "expect";
import { handOverBlocker, kioskMayRequest } from "./scope.ts";

const Q = "6f1c2b9e-3f55-4d7a-9d0e-2b7c1a2f9e10";
const OTHER = "0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d";
const quoteKiosk = { kind: "QUOTE" as const, quoteId: Q };
const intakeKiosk = { kind: "INTAKE" as const, quoteId: null };

describe("kioskMayRequest", () => {
  it("lets a quote kiosk reach its tablet page, client copy, view and selection save only", () => {
    const allowed: [string, string][] = [
      ["GET", `/tablet/${Q}`],
      ["HEAD", `/tablet/${Q}`],
      ["GET", `/quote/${Q}/client-print`],
      ["GET", "/api/kiosk/quote"],
      ["PUT", `/api/quotes/${Q}`],
      ["POST", "/api/kiosk/return"],
    ];
    for (const [method, path] of allowed) {
      expect([method, path, kioskMayRequest(quoteKiosk, method, path)]).toEqual([
        method,
        path,
        true,
      ]);
    }
    const refused: [string, string][] = [
      ["GET", `/tablet/${OTHER}`],
      ["GET", `/tablet/${Q.toUpperCase()}`],
      ["GET", `/tablet/${Q}/`],
      ["GET", `/tablet/${encodeURIComponent(Q).replace("6", "%36")}`],
      ["POST", `/tablet/${Q}`],
      ["GET", `/quote/${Q}`],
      ["GET", `/print/${Q}`],
      ["GET", `/api/quotes/${Q}`],
      ["PUT", `/api/quotes/${OTHER}`],
      ["POST", `/api/quotes/${Q}/close`],
      ["GET", `/api/quotes/${Q}/pdf`],
      ["DELETE", `/api/quotes/${Q}`],
      ["GET", "/api/clients"],
      ["POST", "/api/clients"],
      ["POST", "/api/consent"],
      ["GET", "/intake"],
      ["GET", "/api/settings"],
      ["POST", "/api/staff/login"],
      ["GET", "/api/staff/logout"],
      ["POST", "/api/kiosk/hand-over"],
      ["GET", "/api/kiosk/return"],
      ["GET", "/"],
      ["GET", "/dashboard"],
      ["GET", "/staff"],
      ["OPTIONS", `/api/quotes/${Q}`],
    ];
    for (const [method, path] of refused) {
      expect([method, path, kioskMayRequest(quoteKiosk, method, path)]).toEqual([
        method,
        path,
        false,
      ]);
    }
  });

  it("lets an intake kiosk reach the form, its two reads, the intake and its consents only", () => {
    for (
      const [method, path] of [
        ["GET", "/intake"],
        ["GET", "/api/settings"],
        ["GET", "/api/heard-how-options"],
        ["POST", "/api/clients"],
        ["POST", "/api/consent"],
        ["POST", "/api/kiosk/return"],
      ]
    ) {
      expect(kioskMayRequest(intakeKiosk, method, path)).toBe(true);
    }
    for (
      const [method, path] of [
        ["GET", "/intake/"],
        ["POST", "/intake"],
        ["GET", "/api/clients"],
        ["GET", "/api/clients?limit=200"],
        ["PUT", "/api/clients/x"],
        ["GET", "/api/kiosk/quote"],
        ["GET", `/tablet/${Q}`],
        ["PUT", `/api/quotes/${Q}`],
        ["GET", "/api/auth/user"],
        ["GET", "/api/admin/users"],
      ]
    ) {
      expect([path, kioskMayRequest(intakeKiosk, method, path)]).toEqual([path, false]);
    }
  });

  it("once an intake has created its quote, the intake kiosk still cannot reach it", () => {
    const done = { kind: "INTAKE" as const, quoteId: Q };
    expect(kioskMayRequest(done, "GET", `/tablet/${Q}`)).toBe(false);
    expect(kioskMayRequest(done, "PUT", `/api/quotes/${Q}`)).toBe(false);
    expect(kioskMayRequest(done, "GET", `/quote/${Q}`)).toBe(false);
  });
});

describe("handOverBlocker", () => {
  it("allows a saved, open quote and says why otherwise", () => {
    for (const status of ["ACTIVE", "PENDING_MEASUREMENTS", "EMAILED", "ACCEPTED"] as const) {
      expect(handOverBlocker({ status, isExpired: false })).toBeNull();
    }
    expect(handOverBlocker({ status: "CLOSED", isExpired: false })).toMatch(/closed/);
    expect(handOverBlocker({ status: "FINALIZED", isExpired: false })).toMatch(/finalized/);
    expect(handOverBlocker({ status: "DRAFT", isExpired: false })).toMatch(/Save the quote/);
    expect(handOverBlocker({ status: "ACTIVE", isExpired: true })).toMatch(/Reactivate/);
  });
});
