// TRP Travel Address: "ta" + base58check(URL without scheme), where the URL carries the query t=i
// (OpenVASP TRP specification "Travel Address"; TRISA pkg/openvasp/traddr). Base58check is Bitcoin's:
// payload followed by the first four bytes of sha256(sha256(payload)), no version byte.
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

const codec = createBase58check(sha256);
const PREFIX = 'ta';

export class TravelAddressError extends Error {
  override name = 'TravelAddressError';
}

function checkUri(uri: string): URL {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) throw new TravelAddressError('a travel address URL has no scheme');
  let url: URL;
  try {
    url = new URL(`https://${uri}`);
  } catch {
    throw new TravelAddressError(`not a URL: ${uri}`);
  }
  if (url.searchParams.get('t') !== 'i') throw new TravelAddressError('a travel address URL carries the query t=i');
  const host = url.hostname;
  const isIp = /^[\d.]+$/.test(host) || host.startsWith('[');
  // A dotted name with an alphabetic last label; the TLD itself is not checked against the IANA list.
  if (host !== 'localhost' && !isIp && !/\.[a-z]{2,63}$/i.test(host)) {
    throw new TravelAddressError(`no valid top-level domain in ${host}`);
  }
  return url;
}

/** Encode a scheme-less URL such as "beneficiary.com/x/12345?t=i" as a travel address. */
export function encodeTravelAddress(uri: string): string {
  checkUri(uri);
  return PREFIX + codec.encode(new TextEncoder().encode(uri));
}

/** Make a travel address from any URL: drops an https:// scheme and adds t=i when missing. */
export function makeTravelAddress(url: string): string {
  const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  u.searchParams.set('t', 'i');
  return encodeTravelAddress(u.toString().replace(/^https?:\/\//, ''));
}

/** Decode a travel address to its scheme-less URL; throws TravelAddressError on a bad prefix, checksum or URL. */
export function decodeTravelAddress(address: string): string {
  if (!address.startsWith(PREFIX)) throw new TravelAddressError('a travel address starts with "ta"');
  let bytes: Uint8Array;
  try {
    bytes = codec.decode(address.slice(PREFIX.length));
  } catch (e) {
    throw new TravelAddressError(`bad base58check: ${(e as Error).message}`);
  }
  const uri = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  checkUri(uri);
  return uri;
}

/** The https URL a travel address points to, where the TRP inquiry is POSTed. */
export function travelAddressUrl(address: string): string {
  return `https://${decodeTravelAddress(address)}`;
}
