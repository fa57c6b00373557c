// SSRF guard for webhook targets (decisions.md, Events): private, loopback, link-local, unspecified, multicast,
// CGNAT, reserved, IPv6 ULA/link-local and every IPv4-in-IPv6 form are refused, at registration and again at
// delivery after DNS resolution. `guardedLookup` is handed to the HTTP client so the socket connects to exactly
// the address that was checked (no second resolution, so DNS rebinding cannot swap it).
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

const v4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  v4.addSubnet(net, prefix, 'ipv4');
}

/** Expands an IPv6 literal (optionally with a trailing dotted quad or a zone) into 8 hextets. */
export function parseIpv6(ip: string): number[] | null {
  let s = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const b = quad[1].split('.').map(Number);
    if (b.some((x) => x > 255)) return null;
    s = s.slice(0, -quad[1].length) + `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (h: string) => (h === '' ? [] : h.split(':').map((x) => parseInt(x, 16)));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const out = [...head, ...new Array(Math.max(fill, 0)).fill(0), ...tail];
  return out.length === 8 && out.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? out : null;
}

/** True when webhooks must not be sent to this IP literal. Anything unparsable counts as forbidden. */
export function isForbiddenIp(ip: string): boolean {
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return v4.check(ip, 'ipv4');
  if (family !== 6) return true;
  const h = parseIpv6(ip);
  if (!h) return true;
  const zeroPrefix = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(8)) return true; // ::
  if (zeroPrefix(7) && h[7] === 1) return true; // ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d): refused whatever they embed, since
  // some stacks route them to the IPv4 address; a public service is reached by its plain IPv4 address instead.
  if (zeroPrefix(5) && h[5] === 0xffff) return true;
  if (zeroPrefix(4) && h[4] === 0xffff && h[5] === 0) return true;
  if (zeroPrefix(6)) return true; // IPv4-compatible (deprecated)
  if (h[0] === 0x64 && h[1] === 0xff9b) return true; // NAT64 reaches IPv4 space through a gateway
  if (h[0] === 0x2002) return true; // 6to4 embeds an IPv4 address
  if (h[0] === 0x2001 && h[1] === 0x0db8) return true; // documentation
  if (h[0] === 0x0100 && h[1] === 0 && h[2] === 0 && h[3] === 0) return true; // discard-only 100::/64
  if ((h[0] & 0xfe00) === 0xfc00) return true; // ULA fc00::/7
  if ((h[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((h[0] & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((h[0] & 0xff00) === 0xff00) return true; // multicast
  return false;
}

export class ForbiddenTargetError extends Error {
  readonly code = 'EFORBIDDENTARGET';
}

/** Hostname as it appears in a URL, without IPv6 brackets. */
export const urlHost = (u: URL) => u.hostname.replace(/^\[|\]$/g, '');

/**
 * Resolves the URL's host and returns the addresses, throwing ForbiddenTargetError when any is forbidden.
 * Returns null when the name does not resolve (the delivery-time check still applies).
 */
export async function checkTarget(u: URL): Promise<string[] | null> {
  const host = urlHost(u);
  if (isIP(host)) {
    if (isForbiddenIp(host)) throw new ForbiddenTargetError(`${host} is a private, loopback, link-local or reserved address`);
    return [host];
  }
  const addrs = await new Promise<LookupAddress[] | null>((resolve) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, a) => resolve(err ? null : a)),
  );
  if (!addrs || addrs.length === 0) return null;
  const bad = addrs.find((a) => isForbiddenIp(a.address));
  if (bad) throw new ForbiddenTargetError(`${host} resolves to ${bad.address}, a private, loopback, link-local or reserved address`);
  return addrs.map((a) => a.address);
}

/** A `lookup` for http.request: resolves once, refuses if any answer is forbidden, connects to what it checked. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, verbatim: true, family: options.family }, (err, addrs) => {
    if (err) return callback(err, '', 0);
    const bad = addrs.find((a) => isForbiddenIp(a.address));
    if (bad) {
      const e = new ForbiddenTargetError(`${hostname} resolves to ${bad.address}, which webhooks may not reach`);
      return callback(e as unknown as NodeJS.ErrnoException, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addrs);
    callback(null, addrs[0].address, addrs[0].family);
  });
};
