import { describe, expect, it } from 'vitest';
import { type AddressClass, classifyAddress } from './address-class';

const cases: [string, AddressClass | undefined][] = [
  // IPv4
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.192', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['8.8.8.8', undefined],
  ['93.184.215.14', undefined],
  ['172.32.0.1', undefined],
  ['100.128.0.1', undefined],
  ['169.255.0.1', undefined],
  // IPv6
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['2002:7f00:1::', 'reserved'],
  ['3fff::1', 'reserved'],
  ['100::1', 'reserved'],
  ['::7f00:1', 'reserved'], // IPv4-compatible (deprecated)
  ['64:ff9b:1::a00:1', 'reserved'], // NAT64 local use
  ['2606:4700::1111', undefined],
  ['2a00:1450:4001:82b::200e', undefined],
  // IPv4-mapped and NAT64: judged by the IPv4 address they reach
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', undefined],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['64:ff9b::8.8.8.8', undefined],
  // not an address at all
  ['localhost', 'reserved'],
  ['0x7f.1', 'reserved'],
  ['', 'reserved'],
];

describe('classifyAddress', () => {
  it.each(cases)('%s → %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});
