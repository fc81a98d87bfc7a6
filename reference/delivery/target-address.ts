import { BlockList, isIP } from 'node:net';

/** Which non-public addresses a deployment lets webhooks reach: none by default, loopback and private for local testing. */
export interface TargetPolicy {
  allowPrivate: boolean;
  /** Test-only fault (reference/faults.ts `webhookUserInfoAccepted`): a url's user information is not refused. */
  userInfoAccepted?: boolean;
}

function blockList(ranges: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

// Loopback and private networks: reachable when a deployment allows private targets (local testing).
const privateRanges = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
]);

// Never reachable: link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 too), unspecified, multicast,
// reserved and documentation ranges, and the translation prefixes that could wrap any of the above.
const alwaysRefused = blockList([
  ['0.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['100::', 64, 'ipv6'],
]);

/** `::ffff:10.0.0.1` is 10.0.0.1 for every purpose here. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** Why a webhook may not connect to `address` (an IP literal), or null when it may. */
export function addressRefusal(address: string, policy: TargetPolicy): string | null {
  const ip = unmapped(address);
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (isIP(ip) === 0) return `${address} is not an IP address`;
  if (alwaysRefused.check(ip, family)) return `${address} is a link-local, reserved or metadata address`;
  if (privateRanges.check(ip, family) && !policy.allowPrivate)
    return `${address} is a loopback or private address`;
  return null;
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null when it is a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? null : host;
}
