import assert from 'node:assert/strict';
import { refusedAddress } from '../../../../src/core/net/address';

describe('refusedAddress', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/], ['127.255.0.9', /loopback/], ['::1', /loopback/], ['[::1]', /loopback/],
    ['10.0.0.1', /private/], ['172.31.255.255', /private/], ['192.168.1.1', /private/],
    ['100.64.0.1', /carrier-grade NAT/], ['100.127.255.255', /carrier-grade NAT/],
    ['0.0.0.0', /this network/], ['0.1.2.3', /this network/], ['::', /unspecified/],
    ['169.254.169.254', /link-local .*metadata/], ['fd00:ec2::254', /unique-local .*metadata/], ['fe80::1', /link-local/], ['fe80::1%eth0', /zone/],
    ['fc00::1', /unique-local/], ['224.0.0.1', /multicast/], ['ff02::1', /multicast/], ['255.255.255.255', /reserved/],
    ['::ffff:127.0.0.1', /IPv4-mapped/], ['::ffff:8.8.8.8', /IPv4-mapped/], ['::7f00:1', /IPv4-compatible/],
    ['64:ff9b::7f00:1', /NAT64/], ['2002:7f00:1::1', /6to4/], ['2001:0:4136:e378::1', /Teredo/],
    ['localhost', /not an IP address/], ['0x7f000001', /not an IP address/],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address}`, () => assert.match(refusedAddress(address) ?? 'allowed', reason));
  }

  it('allows public unicast addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
      assert.equal(refusedAddress(address), undefined, address);
    }
  });
});
