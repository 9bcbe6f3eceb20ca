// Who is calling, as an address: the socket's peer, or, when that peer is a
// reverse proxy the settings trust (TRUSTED_PROXIES), the client the proxy
// names in X-Forwarded-For. Limits count per address, so behind a proxy
// without this every client would share the proxy's one count.
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An address in its plain form: IPv4-mapped IPv6 (::ffff:1.2.3.4) as IPv4. */
function parse(text: string): Address | undefined {
  const trimmed = text.trim().replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(trimmed)) return undefined;
  return ipaddr.process(trimmed);
}

/**
 * One entry of TRUSTED_PROXIES: an address, a CIDR range, or a host name
 * (compose's `caddy`), which is resolved at start and again every minute
 * (a container's address changes when it is recreated).
 */
export function isTrustedProxyEntry(entry: string): boolean {
  return ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry) ||
    /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/i.test(entry);
}

/** How often host names in TRUSTED_PROXIES are looked up again. */
const RESOLVE_EVERY_MS = 60_000;

export class TrustedProxies {
  #ranges: [Address, number][] = [];
  #resolved: [Address, number][] = [];
  #names: string[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    entries: readonly string[],
    private readonly resolve: (name: string) => Promise<string[]> = resolveName,
  ) {
    for (const entry of entries) {
      if (ipaddr.isValidCIDR(entry)) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        this.#ranges.push([
          range.kind() === "ipv6" ? ipaddr.process(range.toString()) : range,
          bits,
        ]);
      } else if (ipaddr.isValid(entry)) {
        const address = ipaddr.process(entry);
        this.#ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
      } else {
        this.#names.push(entry);
      }
    }
  }

  /** Looks the host names up now and every minute after (a timer that never keeps the process alive). */
  async start(): Promise<void> {
    if (!this.#names.length) return;
    await this.refresh();
    this.#timer = setInterval(() => this.refresh(), RESOLVE_EVERY_MS);
    Deno.unrefTimer(this.#timer);
  }

  stop() {
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }

  /** The names' current addresses; a name that does not resolve trusts nothing. */
  async refresh(): Promise<void> {
    const found: [Address, number][] = [];
    for (const name of this.#names) {
      for (const text of await this.resolve(name).catch(() => [])) {
        const address = parse(text);
        if (address) found.push([address, address.kind() === "ipv4" ? 32 : 128]);
      }
    }
    this.#resolved = found;
  }

  get any(): boolean {
    return this.#ranges.length > 0 || this.#names.length > 0;
  }

  trusts(address: Address): boolean {
    for (const [range, bits] of [...this.#ranges, ...this.#resolved]) {
      if (range.kind() === address.kind() && address.match(range as never, bits)) return true;
    }
    return false;
  }
}

async function resolveName(name: string): Promise<string[]> {
  const [v4, v6] = await Promise.all([
    Deno.resolveDns(name, "A").catch(() => [] as string[]),
    Deno.resolveDns(name, "AAAA").catch(() => [] as string[]),
  ]);
  return [...v4, ...v6];
}

/**
 * The client's address: the peer itself unless the peer is a trusted proxy;
 * then X-Forwarded-For read from its right end, past every trusted proxy, to
 * the first address that is not one. A header that cannot be read there
 * leaves the last trusted hop (a proxy that sent nonsense is not believed
 * further). Untrusted peers' headers are ignored: anyone can send one.
 */
export function clientAddressOf(
  peer: string,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  const peerAddress = parse(peer);
  if (!peerAddress) return peer;
  let current = peerAddress;
  if (!trusted.any || !trusted.trusts(current) || !forwardedFor) return current.toString();
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parse(hops[i]);
    if (!hop) break;
    current = hop;
    if (!trusted.trusts(hop)) break;
  }
  return current.toString();
}

/**
 * The key an address is counted under by the limits: an IPv4 address as it
 * is, an IPv6 address by its /64 (one household or phone is given a whole
 * /64; counting each of its addresses apart would give it 2^64 tries).
 */
export function addressKey(address: string): string {
  const parsed = parse(address);
  if (!parsed) return address;
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}
