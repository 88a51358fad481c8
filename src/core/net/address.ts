import { BlockList, isIP } from 'node:net';

/**
 * Destinations `web` never connects to, by what they are. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) are refused whole: the address inside could be
 * anything, and a public IPv6 host has no reason to be reached through them.
 */
const RANGES: readonly [reason: string, network: string, prefix: number, type: 'ipv4' | 'ipv6'][] = [
  ['this network (0.0.0.0/8)', '0.0.0.0', 8, 'ipv4'],
  ['private (10.0.0.0/8)', '10.0.0.0', 8, 'ipv4'],
  ['carrier-grade NAT (100.64.0.0/10)', '100.64.0.0', 10, 'ipv4'],
  ['loopback (127.0.0.0/8)', '127.0.0.0', 8, 'ipv4'],
  ['link-local (169.254.0.0/16, cloud metadata included)', '169.254.0.0', 16, 'ipv4'],
  ['private (172.16.0.0/12)', '172.16.0.0', 12, 'ipv4'],
  ['IETF protocol assignments (192.0.0.0/24)', '192.0.0.0', 24, 'ipv4'],
  ['documentation (192.0.2.0/24)', '192.0.2.0', 24, 'ipv4'],
  ['private (192.168.0.0/16)', '192.168.0.0', 16, 'ipv4'],
  ['benchmarking (198.18.0.0/15)', '198.18.0.0', 15, 'ipv4'],
  ['documentation (198.51.100.0/24)', '198.51.100.0', 24, 'ipv4'],
  ['documentation (203.0.113.0/24)', '203.0.113.0', 24, 'ipv4'],
  ['multicast (224.0.0.0/4)', '224.0.0.0', 4, 'ipv4'],
  ['reserved (240.0.0.0/4, broadcast included)', '240.0.0.0', 4, 'ipv4'],
  ['unspecified (::)', '::', 128, 'ipv6'],
  ['loopback (::1)', '::1', 128, 'ipv6'],
  ['IPv4-compatible (::/96)', '::', 96, 'ipv6'],
  ['IPv4-mapped (::ffff:0:0/96)', '::ffff:0:0', 96, 'ipv6'],
  ['NAT64 (64:ff9b::/96)', '64:ff9b::', 96, 'ipv6'],
  ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::', 48, 'ipv6'],
  ['discard-only (100::/64)', '100::', 64, 'ipv6'],
  ['Teredo (2001::/32)', '2001::', 32, 'ipv6'],
  ['documentation (2001:db8::/32)', '2001:db8::', 32, 'ipv6'],
  ['6to4 (2002::/16)', '2002::', 16, 'ipv6'],
  ['unique-local (fc00::/7, cloud metadata included)', 'fc00::', 7, 'ipv6'],
  ['link-local (fe80::/10)', 'fe80::', 10, 'ipv6'],
  ['site-local (fec0::/10)', 'fec0::', 10, 'ipv6'],
  ['multicast (ff00::/8)', 'ff00::', 8, 'ipv6'],
];

const lists = RANGES.map(([reason, network, prefix, type]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { reason, list, type };
});

/**
 * Why `address` (an IP literal, as DNS returns it or a URL names it, brackets allowed) must not be
 * connected to, or undefined for a public unicast address. Anything that is not an IP literal is
 * refused too: the caller resolves names first.
 */
export function refusedAddress(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone index (fe80::1%eth0) only exists on link-local addresses.
  if (bare.includes('%')) return 'an IPv6 address with a zone (link-local)';
  const version = isIP(bare);
  if (version === 0) return 'not an IP address';
  const type = version === 4 ? 'ipv4' : 'ipv6';
  // BlockList matches an IPv4 address against IPv6 ranges (as IPv4-mapped) too: compare like with like.
  for (const list of lists) if (list.type === type && list.list.check(bare, type)) return list.reason;
  return undefined;
}
