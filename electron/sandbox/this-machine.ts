import { BlockList, isIP } from 'node:net';
import os from 'node:os';

/** Addresses that always mean this machine (or no machine): loopback, unspecified, link-local, multicast. */
function localRanges(): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addSubnet('0.0.0.0', 8, 'ipv4');
  list.addSubnet('169.254.0.0', 16, 'ipv4');
  list.addSubnet('224.0.0.0', 4, 'ipv4');
  list.addAddress('255.255.255.255', 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addAddress('::', 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  list.addSubnet('ff00::', 8, 'ipv6');
  return list;
}

const alwaysLocal = localRanges();

/** A host as a URL parser reads it: IPv4 shorthand (`127.1`, `2130706433`, `0x7f.1`) spelled out, brackets removed. */
function canonicalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  try {
    const hostname = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname;
    return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  } catch {
    return bare.toLowerCase();
  }
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:127.0.0.1`). */
function mappedIPv4(address: string): string | undefined {
  const match = /^::ffff:([0-9.]+)$/iu.exec(address);
  return match?.[1] !== undefined && isIP(match[1]) === 4 ? match[1] : undefined;
}

/**
 * Whether a network destination is this machine: `localhost` and names under `.localhost`, a
 * loopback, unspecified, link-local or multicast address, or one of this machine's own interface
 * addresses (a service bound to 0.0.0.0 answers there as on loopback). The sandbox's proxy refuses
 * them so that agent commands cannot reach Vigil's own server or the user's local services.
 */
export function isThisMachine(host: string): boolean {
  const name = canonicalHost(host).toLowerCase().replace(/\.$/u, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name === 'ip6-localhost' || name === 'ip6-loopback')
    return true;
  const family = isIP(name);
  if (family === 0) return false;
  const v4 = family === 6 ? mappedIPv4(name) : name;
  if (v4 !== undefined && alwaysLocal.check(v4, 'ipv4')) return true;
  if (family === 6 && alwaysLocal.check(name, 'ipv6')) return true;
  const own = Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => entry.address.toLowerCase().replace(/%.*$/u, ''));
  return own.includes(name) || (v4 !== undefined && own.includes(v4));
}
