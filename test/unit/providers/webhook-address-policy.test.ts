import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { AddressPolicy } from '../../../src/providers/webhooks/address-policy.ts';
import {
  addressAllowed,
  isForbiddenAddress,
  webhookUrlProblem,
} from '../../../src/providers/webhooks/address-policy.ts';

// The production configuration: no development switch, no allowlist.
const PRODUCTION: AddressPolicy = { allowPrivate: false, allowlist: new Set() };

/** Addresses a real receiver may have: accepted when saved and when connected to. */
const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '151.101.1.69',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:82a::200e',
  '2c0f:fb50:4003::1',
  // IPv6 forms that embed a public IPv4 address stand for that address.
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
] as const;

/** Every address the policy refuses, written every way an attacker might. */
const FORBIDDEN = [
  '0.0.0.0',
  '0.255.255.255',
  '10.0.0.1',
  '10.255.255.254',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.254',
  '192.0.0.1',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '192.168.255.254',
  '198.18.0.1',
  '198.19.255.254',
  '198.51.100.1',
  '203.0.113.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '100::1',
  '2001::1',
  '2001:db8::1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  '64:ff9b:1::808:808',
  // Embedded IPv4 forms of forbidden addresses.
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::10.0.0.1',
  '::ffff:0:10.0.0.1',
  '::ffff:0:a00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::127.0.0.1',
  '64:ff9b::c0a8:1',
  '2002:a9fe:a9fe::',
  '2002:7f00:1::1',
  '2002:c0a8:101::',
  '2001::a9fe:a9fe',
  'not-an-address',
] as const;

function literal(ip: string): string {
  return ip.includes(':') ? `[${ip}]` : ip;
}

describe('webhook address policy with private networks not allowed', () => {
  test('public IPv4 and IPv6 receivers are accepted when saved and pass the connect-time check', () => {
    const refused: string[] = [];
    for (const ip of PUBLIC) {
      for (const url of [`https://${literal(ip)}/hook`, `http://${literal(ip)}:8080/hook?token=a`]) {
        const problem = webhookUrlProblem(url, PRODUCTION);
        if (problem !== null) {
          refused.push(`save ${url}: ${problem}`);
        }
      }
      for (const port of [443, 80, 8443]) {
        if (!addressAllowed(ip, port, PRODUCTION)) {
          refused.push(`connect ${ip}:${port}`);
        }
      }
      if (isForbiddenAddress(ip)) {
        refused.push(`isForbiddenAddress(${ip})`);
      }
    }
    assert.deepEqual(refused, []);
  });

  test('private, loopback, link-local, reserved and embedded-private addresses are refused when saved and when connecting', () => {
    const accepted: string[] = [];
    for (const ip of FORBIDDEN) {
      if (!ip.includes('%') && ip !== 'not-an-address') {
        const url = `https://${literal(ip)}/hook`;
        if (webhookUrlProblem(url, PRODUCTION) === null) {
          accepted.push(`save ${url}`);
        }
      }
      if (addressAllowed(ip, 443, PRODUCTION)) {
        accepted.push(`connect ${ip}:443`);
      }
    }
    assert.deepEqual(accepted, []);
  });

  test('public host names pass the save-time check; local and internal names do not', () => {
    for (const url of ['https://hooks.shop.example/cobro', 'https://api.example.com:8443/h', 'http://example.org./h']) {
      assert.equal(webhookUrlProblem(url, PRODUCTION), null, url);
    }
    for (const url of [
      'http://localhost/h',
      'http://a.localhost/h',
      'http://metadata.google.internal/',
      'http://nas.local/',
    ]) {
      assert.notEqual(webhookUrlProblem(url, PRODUCTION), null, url);
    }
  });

  test('an IPv6 address embedding an IPv4 address is judged exactly as that IPv4 address', () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
    fc.assert(
      fc.property(v4, ([a, b, c, d]) => {
        const ip = `${a}.${b}.${c}.${d}`;
        const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
        const expected = isForbiddenAddress(ip);
        for (const form of [
          `::ffff:${ip}`,
          `::ffff:${hex(a, b)}:${hex(c, d)}`,
          `64:ff9b::${hex(a, b)}:${hex(c, d)}`,
          `2002:${hex(a, b)}:${hex(c, d)}::1`,
        ]) {
          assert.equal(isForbiddenAddress(form), expected, `${form} vs ${ip}`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('the exact ip:port allowlist opens one target and nothing beside it', () => {
    const policy: AddressPolicy = { allowPrivate: false, allowlist: new Set(['127.0.0.1:4000', '[::1]:4000']) };
    assert.equal(addressAllowed('127.0.0.1', 4000, policy), true);
    assert.equal(addressAllowed('::1', 4000, policy), true);
    assert.equal(addressAllowed('127.0.0.1', 4001, policy), false);
    assert.equal(addressAllowed('127.0.0.2', 4000, policy), false);
    assert.equal(addressAllowed('8.8.8.8', 4001, policy), true);
  });
});
