import { describe, expect, it } from 'vitest';
import { checkHttpHeaders } from './httpGuard.js';

describe('checkHttpHeaders', () => {
  const check = (headers: Record<string, string>) => checkHttpHeaders(headers, '127.0.0.1', 4000);
  it('lets loopback names on our port through, with or without a loopback Origin', () => {
    expect(check({ host: '127.0.0.1:4000' })).toBeUndefined();
    expect(check({ host: 'localhost:4000', origin: 'http://localhost:5173' })).toBeUndefined();
    expect(check({ host: '[::1]:4000' })).toBeUndefined();
  });
  it('refuses foreign Host names, other ports and cross-site Origins', () => {
    expect(check({ host: 'evil.example:4000' })).toContain('is not this server');
    expect(check({ host: '127.0.0.1:4001' })).toContain('is not this server');
    expect(check({})).toContain('Host header is required');
    expect(check({ host: '127.0.0.1:4000', origin: 'https://evil.example' })).toContain(
      'Cross-site',
    );
    expect(check({ host: '127.0.0.1:4000', origin: 'null' })).toContain('not allowed');
  });
  it('serves the names --allowed-hosts lists, with or without a port, and any with "*"', () => {
    const listed = (headers: Record<string, string>, allowed: string[]) =>
      checkHttpHeaders(headers, '127.0.0.1', 4000, allowed);
    expect(listed({ host: 'box.test:4000' }, ['box.test'])).toBeUndefined();
    expect(listed({ host: 'box.test:8080' }, ['box.test:8080'])).toBeUndefined();
    expect(listed({ host: 'box.test:8081' }, ['box.test:8080'])).toContain('--allowed-hosts');
    expect(listed({ host: 'other.test:4000' }, ['box.test'])).toContain('is not this server');
    expect(listed({ host: 'anything.test' }, ['*'])).toBeUndefined();
    expect(listed({ host: 'box.test:4000', origin: 'http://box.test:4000' }, ['box.test'])).toBe(
      undefined,
    );
    // "*" lifts the Host check only: a cross-site page is still refused.
    expect(listed({ host: 'x.test', origin: 'https://evil.example' }, ['*'])).toContain(
      'Cross-site',
    );
  });
});
