import { describe, expect, it } from 'vitest';
import {
  canonicalHost,
  checkOrigin,
  checkRemoteAddress,
  isPrivateAddress,
  parseOriginEntry,
  siteOrigin,
} from './originPolicy.js';

describe('checkOrigin', () => {
  it('allows everything without a policy, and non-http schemes always', () => {
    expect(checkOrigin(undefined, 'https://x.test/').allowed).toBe(true);
    expect(checkOrigin({ allowedOrigins: ['https://a.test'] }, 'about:blank').allowed).toBe(true);
  });
  it('blocks listed origins and host patterns, block winning over allow', () => {
    const policy = {
      allowedOrigins: ['*.shop.test'],
      blockedOrigins: ['https://pay.shop.test', 'ads.test'],
    };
    expect(checkOrigin(policy, 'https://www.shop.test/cart').allowed).toBe(true);
    expect(checkOrigin(policy, 'https://shop.test/').allowed).toBe(true);
    expect(checkOrigin(policy, 'https://pay.shop.test/').allowed).toBe(false);
    expect(checkOrigin(policy, 'http://ads.test/x').allowed).toBe(false);
    expect(checkOrigin(policy, 'https://evil.test/').allowed).toBe(false);
    expect(checkOrigin(policy, 'https://evilshop.test/').allowed).toBe(false);
  });
  it('matches an origin exactly: scheme and port count', () => {
    const policy = { allowedOrigins: ['http://127.0.0.1:3000'] };
    expect(checkOrigin(policy, 'http://127.0.0.1:3000/a').allowed).toBe(true);
    expect(checkOrigin(policy, 'http://127.0.0.1:3001/a').allowed).toBe(false);
    expect(checkOrigin(policy, 'https://127.0.0.1:3000/a').allowed).toBe(false);
  });
  it('matches host:port and scheme://host:* entries (a local dev server)', () => {
    const byPort = { allowedOrigins: ['localhost:3000'] };
    expect(checkOrigin(byPort, 'http://localhost:3000/app').allowed).toBe(true);
    expect(checkOrigin(byPort, 'https://localhost:3000/').allowed).toBe(true);
    expect(checkOrigin(byPort, 'http://localhost:3001/').allowed).toBe(false);
    expect(checkOrigin(byPort, 'http://localhost/').allowed).toBe(false);
    const anyPort = { allowedOrigins: ['http://localhost:*'] };
    expect(checkOrigin(anyPort, 'http://localhost:5173/').allowed).toBe(true);
    expect(checkOrigin(anyPort, 'http://localhost/').allowed).toBe(true);
    expect(checkOrigin(anyPort, 'https://localhost:5173/').allowed).toBe(false);
    expect(checkOrigin(anyPort, 'http://127.0.0.1:5173/').allowed).toBe(false);
    const blocked = { blockedOrigins: ['127.0.0.1:9000', 'https://*.ads.test'] };
    expect(checkOrigin(blocked, 'http://127.0.0.1:9000/').allowed).toBe(false);
    expect(checkOrigin(blocked, 'http://127.0.0.1:9001/').allowed).toBe(true);
    expect(checkOrigin(blocked, 'https://x.ads.test/').allowed).toBe(false);
    expect(checkOrigin(blocked, 'http://x.ads.test/').allowed).toBe(true);
  });
  it('tells which entries it can read', () => {
    for (const ok of [
      'https://a.test',
      'a.test',
      '*.a.test',
      'localhost:3000',
      'http://localhost:*',
      '[::1]:8080',
    ])
      expect(parseOriginEntry(ok), ok).toBeDefined();
    for (const bad of ['http://', 'a.test/path', 'http://a.test:99999', '*', 'a test'])
      expect(parseOriginEntry(bad), bad).toBeUndefined();
  });
  it('blocks private-network addresses when asked', () => {
    const policy = { blockPrivateNetwork: true };
    for (const url of [
      'http://127.0.0.1/',
      'http://10.1.2.3/',
      'http://172.20.0.1/',
      'http://192.168.1.1/',
      'http://localhost:8080/',
      'http://[::1]/',
    ]) {
      expect(checkOrigin(policy, url).allowed, url).toBe(false);
    }
    expect(checkOrigin(policy, 'https://example.test/').allowed).toBe(true);
    expect(checkOrigin(policy, 'http://172.32.0.1/').allowed).toBe(true);
  });
});

describe('host spellings', () => {
  const privateOnly = { blockPrivateNetwork: true };
  it('recognises every spelling of loopback and private addresses', () => {
    for (const url of [
      'http://0x7f.1/',
      'http://2130706433/',
      'http://127.1/',
      'http://0177.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::]/',
      'http://0.0.0.0/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::a00:1]/',
      'http://[::ffff:192.168.0.1]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      'http://LOCALHOST./',
      'http://app.localhost./',
      'http://100.64.0.1/',
    ]) {
      expect(checkOrigin(privateOnly, url).allowed, url).toBe(false);
    }
  });
  it('does not refuse public names that merely start with fc or fd, or public addresses', () => {
    for (const url of [
      'https://fcbarcelona.test/',
      'https://fd.test/',
      'https://fe80.test/',
      'http://[2001:db8::1]/',
      'http://[::ffff:8.8.8.8]/',
      'http://8.8.8.8/',
      'http://100.128.0.1/',
    ]) {
      expect(checkOrigin(privateOnly, url).allowed, url).toBe(true);
    }
  });
  it('a trailing dot or upper case does not defeat a block or allow entry', () => {
    const policy = { blockedOrigins: ['evil.test', 'http://127.0.0.1:4000', '*.ads.test.'] };
    expect(checkOrigin(policy, 'http://EVIL.test./').allowed).toBe(false);
    expect(checkOrigin(policy, 'http://evil.test../').allowed).toBe(false);
    expect(checkOrigin(policy, 'http://x.ads.test./').allowed).toBe(false);
    expect(checkOrigin(policy, 'http://2130706433:4000/').allowed).toBe(false);
    const allow = { allowedOrigins: ['https://shop.test'] };
    expect(checkOrigin(allow, 'https://SHOP.test./').allowed).toBe(true);
  });
  it('checks the address the browser connected to', () => {
    expect(isPrivateAddress('127.0.0.1')).toBe(true);
    expect(isPrivateAddress('[::1]')).toBe(true);
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
    expect(checkRemoteAddress(privateOnly, 'https://public.test/', '192.168.1.5').allowed).toBe(
      false,
    );
    expect(checkRemoteAddress(privateOnly, 'https://public.test/', '8.8.8.8').allowed).toBe(true);
    expect(checkRemoteAddress({}, 'https://public.test/', '127.0.0.1').allowed).toBe(true);
  });
});

describe('one spelling for every list (issue #25)', () => {
  it('canonicalHost: case, trailing dots, userinfo, IDN, IPv4 forms, IPv6 brackets', () => {
    const cases: Array<[string, string | undefined]> = [
      ['LocalHost.', 'localhost'],
      ['user:pw@PayPal.com..', 'paypal.com'],
      ['bücher.de', 'xn--bcher-kva.de'],
      ['BÜCHER.DE.', 'xn--bcher-kva.de'],
      ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
      ['2130706433', '127.0.0.1'],
      ['0x7f.0.0.1', '127.0.0.1'],
      ['0x7f000001', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
      ['127.0.0.1.', '127.0.0.1'],
      ['[::1]', '::1'],
      ['::1', '::1'],
      ['[0:0:0:0:0:0:0:1]', '::1'],
      ['[::FFFF:127.0.0.1]', '::ffff:7f00:1'],
      ['', undefined],
      ['a b', undefined],
      ['a.test/x', undefined],
    ];
    for (const [input, out] of cases) expect(canonicalHost(input), input).toBe(out);
  });
  it('siteOrigin: default ports dropped, others kept; http(s) only', () => {
    expect(siteOrigin('https://user@PayPal.com.:443/x?y')).toBe('https://paypal.com');
    expect(siteOrigin('http://bücher.de:80/')).toBe('http://xn--bcher-kva.de');
    expect(siteOrigin('http://0x7f.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(siteOrigin('http://[0:0::1]:81/')).toBe('http://[::1]:81');
    expect(siteOrigin('https://a.test:80/')).toBe('https://a.test:80');
    expect(siteOrigin('about:blank')).toBeUndefined();
    expect(siteOrigin('not a url')).toBeUndefined();
  });
  it('origin-policy entries in any spelling hold against URLs in any spelling', () => {
    const policy = {
      blockedOrigins: ['bücher.de', 'https://admin@Bank.test.:443', '0x7f.1:9000', '[::1]'],
    };
    for (const url of [
      'https://xn--bcher-kva.de/',
      'https://BÜCHER.de./',
      'https://bank.test/',
      'https://x@BANK.test./',
      'http://127.0.0.1:9000/',
      'http://2130706433:9000/',
      'http://[0::1]:3000/',
    ])
      expect(checkOrigin(policy, url).allowed, url).toBe(false);
    for (const url of ['https://bucher.de/', 'http://bank.test/', 'http://127.0.0.1:9001/'])
      expect(checkOrigin(policy, url).allowed, url).toBe(true);
    expect(parseOriginEntry('https://admin@a.test')?.host).toBe('a.test');
  });
});
