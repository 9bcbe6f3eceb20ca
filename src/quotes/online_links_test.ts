import { describe, it } from "node:test";
import { expect } from "expect";
import {
  LINK_TOKEN_PATTERN,
  linkRefusal,
  type LinkRow,
  linkTokenHash,
  localDay,
  newLinkToken,
} from "./online_links.ts";
import { loggedPath } from "../http/middleware.ts";

const now = new Date("2026-03-10T12:00:00Z");
const link = (over: Partial<LinkRow> = {}): LinkRow => ({
  id: "l",
  quoteId: "q",
  quoteVersion: 4,
  expiresAt: new Date("2026-04-01T00:00:00Z"),
  revokedAt: null,
  spentAt: null,
  lastViewedOn: null,
  ...over,
});
const quote = {
  status: "EMAILED" as const,
  version: 4,
  expiresAt: new Date("2026-03-20T00:00:00Z"),
};

describe("online link tokens", () => {
  it("are 256 random bits in 43 URL-safe characters, never twice the same", () => {
    const tokens = new Set(Array.from({ length: 200 }, newLinkToken));
    expect(tokens.size).toBe(200);
    for (const t of tokens) expect(t).toMatch(LINK_TOKEN_PATTERN);
  });

  it("are stored as their SHA-256 in hex, which is not the token", () => {
    const token = newLinkToken();
    expect(linkTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(linkTokenHash(token)).not.toContain(token);
    expect(linkTokenHash(token)).toBe(linkTokenHash(token));
  });

  it("never reach a log line: the request log writes the route's shape", () => {
    const token = newLinkToken();
    expect(loggedPath(`/q/${token}`)).toBe("/q/:token");
    expect(loggedPath(`/q/${token}/accept`)).toBe("/q/:token/accept");
    expect(loggedPath("/quotes/abc")).toBe("/quotes/abc");
  });
});

describe("linkRefusal", () => {
  it("lets a fresh link of an open, unchanged quote through", () => {
    expect(linkRefusal(link(), quote, now)).toBeNull();
    expect(linkRefusal(link(), { ...quote, status: "ACTIVE" }, now)).toBeNull();
    expect(linkRefusal(link(), { ...quote, status: "ACCEPTED" }, now)).toBeNull();
    expect(linkRefusal(link(), { ...quote, expiresAt: null }, now)).toBeNull();
  });

  it("refuses a link once the quote changed after the send", () => {
    expect(linkRefusal(link(), { ...quote, version: 5 }, now)).toBe("changed");
  });

  it("refuses a spent link first, whatever happened since", () => {
    expect(linkRefusal(link({ spentAt: now }), { ...quote, status: "FINALIZED", version: 5 }, now))
      .toBe("spent");
  });

  it("refuses revoked links, closed and finalized quotes", () => {
    expect(linkRefusal(link({ revokedAt: now }), quote, now)).toBe("revoked");
    expect(linkRefusal(link(), { ...quote, status: "CLOSED" }, now)).toBe("closed");
    expect(linkRefusal(link(), { ...quote, status: "FINALIZED" }, now)).toBe("closed");
  });

  it("refuses when the quote or the link has expired", () => {
    const later = new Date("2026-03-21T00:00:00Z");
    expect(linkRefusal(link(), quote, later)).toBe("expired");
    expect(linkRefusal(link({ expiresAt: now }), { ...quote, expiresAt: null }, now))
      .toBe("expired");
  });

  it("refuses a quote still waiting for measurements", () => {
    expect(linkRefusal(link(), { ...quote, status: "PENDING_MEASUREMENTS" }, now))
      .toBe("pending");
  });
});

describe("localDay", () => {
  it("is the server's local date", () => {
    const d = new Date(2026, 0, 5, 23, 59);
    expect(localDay(d)).toBe("2026-01-05");
  });
});
