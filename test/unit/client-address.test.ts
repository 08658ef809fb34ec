import { expect } from 'chai';
import { proxyHops } from '../../src/config';
import { clientAddressKey } from '../../src/http/client-address';

describe('client address keys and TRUST_PROXY (pure)', () => {
  it('counts IPv4 per address, IPv4-mapped IPv6 as the IPv4 address, IPv6 per /64', () => {
    expect(clientAddressKey('203.0.113.7')).to.equal('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).to.equal('2001:db8:1:2::/64');
    // One /64, written every way: one key, so a host cannot rotate through its 2^64 addresses.
    for (const ip of ['2001:db8:1:2::1', '2001:0DB8:0001:0002::ffff', '2001:db8:1:2:0:0:0:9']) expect(clientAddressKey(ip), ip).to.equal('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).to.equal('0:0:0:0::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).to.not.equal(clientAddressKey('2001:db8:1:2::1'));
    expect(clientAddressKey('')).to.equal('unknown');
  });

  it('TRUST_PROXY: unset or false trusts nothing, true one hop, a number that many; anything else is refused', () => {
    expect([undefined, '', 'false', 'true', '0', '2'].map(proxyHops)).to.deep.equal([0, 0, 0, 1, 0, 2]);
    for (const raw of ['yes', '1.5', '-1', 'TRUE']) expect(() => proxyHops(raw), raw).to.throw(/TRUST_PROXY must be/);
  });
});
