import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses an outbound request from Verity must not reach unless the operator allows it:
 * loopback, private, shared (CGNAT), link-local (including cloud metadata at 169.254.169.254),
 * unspecified, multicast and reserved ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 included).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/**
 * Never reachable, whatever the operator allows: link-local (cloud metadata at 169.254.169.254 and
 * fd00:ec2::254 style addresses live there or behind it), unspecified, multicast and reserved ranges.
 * Private networks (loopback, RFC 1918, CGNAT, unique-local) can be allowed for a sandbox or by the operator.
 */
const forbidden = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  forbidden.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  forbidden.addSubnet(net, prefix, 'ipv6');

function v4(address: string): string | null {
  if (isIP(address) === 4) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : null;
}

/** Link-local, metadata, unspecified, multicast or reserved: refused even where private networks are allowed. */
export function isForbiddenAddress(address: string): boolean {
  const a = v4(address);
  if (a) return forbidden.check(a, 'ipv4');
  return isIP(address) === 6 && forbidden.check(address, 'ipv6');
}

/** Whether an outbound connection may go to this address: public always, private only when allowed, forbidden never. */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  if (isForbiddenAddress(address)) return false;
  return allowPrivate || !isPrivateAddress(address);
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return false;
}

export interface UrlPolicy {
  requireHttps: boolean;
  allowPrivateNetworks: boolean;
}

/** Checks a destination URL's form (scheme, credentials, literal addresses); returns a problem or null. */
export function checkDestinationUrl(raw: string, policy: UrlPolicy): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url is not a valid absolute URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'url must use https (or http where the operator allows it)';
  if (policy.requireHttps && u.protocol !== 'https:') return 'url must use https';
  if (u.username || u.password) return 'url must not contain credentials';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isForbiddenAddress(host)) return 'url must not point to a link-local, metadata, multicast or reserved address';
  if (!policy.allowPrivateNetworks) {
    if (host === 'localhost' || host.endsWith('.localhost')) return 'url must not point to a loopback, private or link-local address';
    if (isIP(host) && isPrivateAddress(host)) return 'url must not point to a loopback, private or link-local address';
  }
  return null;
}

/**
 * A `lookup` for http(s) agents that resolves the host and refuses private addresses at connection
 * time, so a name that resolves to a public address when checked and to 169.254.169.254 later (DNS
 * rebinding) is caught. Used by every outbound fetch (webhook deliveries, imported media).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      const allowed = list.filter((a) => addressAllowed(a.address, allowPrivate));
      if (allowed.length === 0)
        return callback(
          Object.assign(new Error(`${hostname} resolves only to addresses this service may not reach`), { code: 'EADDRNOTALLOWED' }),
          '',
          4,
        );
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * Resolves a destination's host when it is saved, so a name that maps only to addresses the policy
 * refuses (a DNS name for 127.0.0.1 or for the metadata service) is refused at once rather than retried
 * for days. A name that does not resolve now is accepted: the connection-time guard still applies.
 */
export async function checkResolvedHost(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<string | null> {
  let host: string;
  try {
    host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  if (isIP(host)) return null;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return null;
  }
  if (addresses.length > 0 && !addresses.some((a) => addressAllowed(a, allowPrivate))) {
    return `url's host ${host} resolves only to addresses this service may not reach (${addresses.slice(0, 3).join(', ')})`;
  }
  return null;
}

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, list) => (err ? reject(err) : resolve((list as LookupAddress[]).map((a) => a.address)))),
  );
}
