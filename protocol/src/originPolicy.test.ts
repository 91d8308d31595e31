import { describe, expect, it } from 'vitest';
import { checkOrigin, parseOriginEntry } from './originPolicy.js';

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
