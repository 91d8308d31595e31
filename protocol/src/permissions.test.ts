import { describe, expect, it } from 'vitest';
import { siteMatches, type SiteUrl } from './permissions.js';

/** A URL's parts, written out (protocol's tests have no DOM lib either). */
function at(url: string): SiteUrl {
  const m = /^(\w+:)\/\/([^/:]+)(:\d+)?(\/[^?#]*)?/.exec(url);
  if (!m) throw new Error(url);
  const [, scheme = '', host = '', port = '', path = '/'] = m;
  return {
    origin: `${scheme}//${host.toLowerCase()}${port}`,
    hostname: host.toLowerCase(),
    pathname: path,
  };
}

describe('siteMatches', () => {
  it('matches a host and its subdomains, case-insensitively', () => {
    expect(siteMatches('paypal.com', at('https://www.PayPal.com/x'))).toBe(true);
    expect(siteMatches('paypal.com', at('https://paypal.com'))).toBe(true);
    expect(siteMatches('paypal.com', at('https://notpaypal.com'))).toBe(false);
    expect(siteMatches('paypal.com', at('https://paypal.com.evil.test'))).toBe(false);
  });
  it('matches only subdomains for *.', () => {
    expect(siteMatches('*.bank.test', at('https://a.bank.test'))).toBe(true);
    expect(siteMatches('*.bank.test', at('https://bank.test'))).toBe(false);
  });
  it('matches an origin exactly when the pattern has a scheme', () => {
    expect(siteMatches('http://127.0.0.1:8080', at('http://127.0.0.1:8080/a'))).toBe(true);
    expect(siteMatches('http://127.0.0.1:8080', at('http://127.0.0.1:8081/a'))).toBe(false);
  });
  it('matches a host with a path prefix', () => {
    expect(siteMatches('myaccount.google.com', at('https://myaccount.google.com/x'))).toBe(true);
    expect(siteMatches('google.com/settings', at('https://www.google.com/settings/a'))).toBe(true);
    expect(siteMatches('google.com/settings', at('https://www.google.com/search'))).toBe(false);
  });
  it('ignores blank patterns', () => {
    expect(siteMatches('  ', at('https://a.test'))).toBe(false);
  });
});
