import { describe, it } from "node:test";
import { expect } from "expect";
import {
  addressKey,
  clientAddressOf,
  isTrustedProxyEntry,
  TrustedProxies,
} from "./client_address.ts";

describe("clientAddressOf", () => {
  const trusted = new TrustedProxies(["10.0.0.5", "192.168.1.0/24", "fd00::/8"]);

  it("is the peer when no proxy is trusted or the peer is not one", () => {
    expect(clientAddressOf("203.0.113.9", "198.51.100.1", new TrustedProxies([])))
      .toBe("203.0.113.9");
    expect(clientAddressOf("203.0.113.9", "198.51.100.1", trusted)).toBe("203.0.113.9");
  });

  it("reads X-Forwarded-For from the right, past every trusted proxy", () => {
    expect(clientAddressOf("10.0.0.5", "198.51.100.1", trusted)).toBe("198.51.100.1");
    // A client that sends its own X-Forwarded-For cannot choose its address.
    expect(clientAddressOf("10.0.0.5", "1.2.3.4, 198.51.100.1, 192.168.1.20", trusted))
      .toBe("198.51.100.1");
    expect(clientAddressOf("::ffff:10.0.0.5", "198.51.100.1", trusted)).toBe("198.51.100.1");
    expect(clientAddressOf("fd12::1", "2001:db8::7", trusted)).toBe("2001:db8::7");
  });

  it("stops at the last trusted hop when the header cannot be read", () => {
    expect(clientAddressOf("10.0.0.5", "nonsense", trusted)).toBe("10.0.0.5");
    expect(clientAddressOf("10.0.0.5", "198.51.100.1, garbage, 192.168.1.20", trusted))
      .toBe("192.168.1.20");
    expect(clientAddressOf("10.0.0.5", undefined, trusted)).toBe("10.0.0.5");
  });

  it("trusts a host name at the addresses it resolves to", async () => {
    const named = new TrustedProxies(
      ["caddy"],
      (name) => Promise.resolve(name === "caddy" ? ["172.18.0.9"] : []),
    );
    expect(clientAddressOf("172.18.0.9", "198.51.100.1", named)).toBe("172.18.0.9");
    await named.refresh();
    expect(clientAddressOf("172.18.0.9", "198.51.100.1", named)).toBe("198.51.100.1");
  });
});

describe("addressKey", () => {
  it("counts an IPv4 address as itself and an IPv6 address by its /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("unknown")).toBe("unknown");
  });
});

describe("TRUSTED_PROXIES entries", () => {
  it("are addresses, CIDR ranges or host names", () => {
    for (const ok of ["10.0.0.5", "10.0.0.0/8", "::1", "fd00::/8", "caddy", "proxy.local"]) {
      expect({ ok, valid: isTrustedProxyEntry(ok) }).toEqual({ ok, valid: true });
    }
    for (const bad of ["10.0.0.0/99", "-bad", "a b", "http://x", "*"]) {
      expect({ bad, valid: isTrustedProxyEntry(bad) }).toEqual({ bad, valid: false });
    }
  });
});
