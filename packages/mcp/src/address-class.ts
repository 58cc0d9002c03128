import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not on the public internet (see `classifyAddress`). */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

type Range = readonly [prefix: bigint, length: number, addressClass: AddressClass];

const v4 = (dotted: string): bigint =>
  dotted.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n);

/** IANA's IPv4 special-purpose blocks that are not globally reachable. */
const IPV4_RANGES: readonly Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'], // "this network"
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'private'], // shared address space (carrier-grade NAT)
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'], // cloud metadata (169.254.169.254) lives here
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'], // IETF protocol assignments
  [v4('192.0.2.0'), 24, 'reserved'], // documentation
  [v4('192.88.99.0'), 24, 'reserved'], // 6to4 relay anycast (deprecated)
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'], // benchmarking
  [v4('198.51.100.0'), 24, 'reserved'], // documentation
  [v4('203.0.113.0'), 24, 'reserved'], // documentation
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'], // future use, and the broadcast address
];

/** 8 groups of 16 bits as one number; `::`, a dotted IPv4 tail and a zone (`%eth0`) accepted. */
function v6(address: string): bigint {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = v4(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [
    ...headGroups,
    ...Array<string>(tail === undefined ? 0 : missing).fill('0'),
    ...tailGroups,
  ];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

const within = (value: bigint, bits: number, prefix: bigint, length: number): boolean =>
  value >> BigInt(bits - length) === prefix >> BigInt(bits - length);

/** IPv6 blocks whose last 32 bits are an IPv4 address that is what gets reached. */
const EMBEDDING_IPV4: readonly (readonly [bigint, number])[] = [
  [v6('::ffff:0:0'), 96], // IPv4-mapped
  [v6('64:ff9b::'), 96], // NAT64, well-known prefix
];

/** Within global unicast (2000::/3), the blocks that are not globally reachable. */
const IPV6_RANGES: readonly Range[] = [
  [v6('::'), 128, 'unspecified'],
  [v6('::1'), 128, 'loopback'],
  [v6('fe80::'), 10, 'link-local'],
  [v6('fc00::'), 7, 'private'], // unique local
  [v6('fec0::'), 10, 'private'], // site-local (deprecated)
  [v6('ff00::'), 8, 'multicast'],
  [v6('2001::'), 23, 'reserved'], // IETF protocol assignments, Teredo included
  [v6('2001:db8::'), 32, 'reserved'], // documentation
  [v6('2002::'), 16, 'reserved'], // 6to4: an IPv4 address of any kind behind a relay
  [v6('3fff::'), 20, 'reserved'], // documentation
];

function classifyIPv4(address: string): AddressClass | undefined {
  const value = v4(address);
  return IPV4_RANGES.find(([prefix, length]) => within(value, 32, prefix, length))?.[2];
}

function classifyIPv6(address: string): AddressClass | undefined {
  const value = v6(address);
  for (const [prefix, length] of EMBEDDING_IPV4) {
    if (within(value, 128, prefix, length)) {
      const embedded = value & 0xffffffffn;
      return classifyIPv4([24n, 16n, 8n, 0n].map((shift) => (embedded >> shift) & 0xffn).join('.'));
    }
  }
  const listed = IPV6_RANGES.find(([prefix, length]) => within(value, 128, prefix, length))?.[2];
  if (listed !== undefined) return listed;
  // Only 2000::/3 is global unicast; everything else (IPv4-compatible ::/96, discard-only
  // 100::/64, the NAT64 local-use prefix, unassigned space) is not the public internet.
  return value >> 125n === 1n ? undefined : 'reserved';
}

/**
 * Why an IP address is not a public internet address — loopback, private (RFC 1918, carrier-grade
 * NAT, unique-local), link-local (cloud metadata included), unspecified, multicast or reserved —
 * or undefined for a public one. IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4
 * address they reach. Anything that is not an IP address is `reserved`: a caller never connects
 * to what it cannot classify.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  if (isIPv4(address)) return classifyIPv4(address);
  if (isIPv6(address)) return classifyIPv6(address);
  return 'reserved';
}
