import { describe, expect, it } from 'vitest';
import type { Cookie } from './cookieJar';
import { domainCovers, inScope, policyAllows, siteFor, sitesOf } from './cookieJar';

function cookie(domain: string, name = 'c'): Cookie {
  return {
    name,
    value: 'v',
    domain,
    path: '/',
    expires: -1,
    size: 2,
    httpOnly: false,
    secure: false,
    session: true,
    priority: 'Medium',
    sourceScheme: 'NonSecure',
    sourcePort: 80,
  };
}

describe('cookie scope', () => {
  const sites = sitesOf([
    'https://shop.example.test/cart',
    'about:blank',
    'http://127.0.0.1:8080/',
  ]);

  it('takes the http(s) hosts of the tabs, in order, once each', () => {
    expect(sites).toEqual([
      { scheme: 'https', host: 'shop.example.test' },
      { scheme: 'http', host: '127.0.0.1' },
    ]);
  });

  it('covers host-only cookies of the host and domain cookies of a parent', () => {
    expect(domainCovers('shop.example.test', 'shop.example.test')).toBe(true);
    expect(domainCovers('.example.test', 'shop.example.test')).toBe(true);
    // A host-only cookie of the parent is not sent to the subdomain.
    expect(domainCovers('example.test', 'shop.example.test')).toBe(false);
    expect(domainCovers('.other.test', 'shop.example.test')).toBe(false);
    expect(domainCovers('.shop.example.test.evil', 'shop.example.test')).toBe(false);
  });

  it('leaves out the cookies of other sites and of blocked origins', () => {
    expect(inScope(cookie('.example.test'), sites, undefined)).toBe(true);
    expect(inScope(cookie('bank.test'), sites, undefined)).toBe(false);
    const policy = { blockedOrigins: ['example.test'] };
    expect(policyAllows(policy, '.example.test')).toBe(false);
    expect(inScope(cookie('.example.test'), sites, policy)).toBe(false);
    expect(inScope(cookie('shop.example.test'), sites, policy)).toBe(true);
  });

  it('sets cookies only on a session site or a parent domain of one', () => {
    expect(siteFor(undefined, sites)?.host).toBe('shop.example.test');
    expect(siteFor('example.test', sites)?.host).toBe('shop.example.test');
    expect(siteFor('.example.test', sites)?.host).toBe('shop.example.test');
    expect(siteFor('bank.test', sites)).toBeUndefined();
    expect(siteFor(undefined, [])).toBeUndefined();
  });
});
