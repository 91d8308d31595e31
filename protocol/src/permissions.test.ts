import { describe, expect, it } from 'vitest';
import { siteMatches, type SiteUrl } from './originPolicy.js';

/** A URL's parts, written out (protocol's tests have no DOM lib either). */
function at(url: string): SiteUrl {
  const m = /^(\w+:)\/\/(\[[^\]]+\]|[^/:]+)(:\d+)?(\/[^?#]*)?/.exec(url);
  if (!m) throw new Error(url);
  const [, scheme = '', host = '', port = '', path = '/'] = m;
  // As written: the matcher must not rely on the URL parser having lower-cased anything.
  return { origin: `${scheme}//${host}${port}`, hostname: host, pathname: path };
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
  it('answers the same when the same list meets URLs in turn (patterns and the host are read once)', () => {
    const list = [
      'paypal.com',
      '*.bank.test',
      'https://x.test:8080',
      'PayPal.com.',
      'shop.test/admin',
    ];
    const urls = [
      'https://www.paypal.com/',
      'https://evil.test/',
      'https://a.bank.test/',
      'https://bank.test/',
      'https://x.test:8080/',
      'https://x.test/',
      'https://shop.test/admin/users',
      'https://shop.test/',
      'https://www.paypal.com/',
    ];
    const expected = [true, false, true, false, true, false, true, false, true];
    // Twice over, and each URL against the list as the gate asks: the answers never carry over.
    for (let round = 0; round < 2; round += 1)
      expect(urls.map((u) => list.some((p) => siteMatches(p, at(u))))).toEqual(expected);
    // One pattern against hosts that alternate: the last host read is no other host's answer.
    expect(
      ['https://paypal.com/', 'https://evil.test/', 'https://paypal.com/'].map((u) =>
        siteMatches('paypal.com', at(u)),
      ),
    ).toEqual([true, false, true]);
  });

  it('ignores blank patterns', () => {
    expect(siteMatches('  ', at('https://a.test'))).toBe(false);
  });
  it('matches every spelling of an entry and of the URL (issue #25)', () => {
    // Case, trailing dots and userinfo in the entry.
    expect(siteMatches('HTTP://LocalHost.:8080/', at('http://localhost:8080/a'))).toBe(true);
    expect(siteMatches('PayPal.COM.', at('https://www.paypal.com/'))).toBe(true);
    expect(siteMatches('admin@paypal.com', at('https://paypal.com/'))).toBe(true);
    expect(siteMatches('https://admin:pw@paypal.com', at('https://paypal.com/'))).toBe(true);
    // The same on the URL side.
    expect(siteMatches('paypal.com', at('https://PAYPAL.com../x'))).toBe(true);
    expect(siteMatches('https://paypal.com', at('https://paypal.com./x'))).toBe(true);
    expect(siteMatches('*.paypal.com', at('https://WWW.PayPal.com./'))).toBe(true);
    // Default ports: written or not, they are one origin.
    expect(siteMatches('https://paypal.com:443', at('https://paypal.com/'))).toBe(true);
    expect(siteMatches('https://paypal.com', at('https://paypal.com:443/'))).toBe(true);
    expect(siteMatches('https://paypal.com:8443', at('https://paypal.com/'))).toBe(false);
    expect(siteMatches('http://paypal.com', at('https://paypal.com/'))).toBe(false);
    // host:port on any scheme.
    expect(siteMatches('localhost:3000', at('http://localhost:3000/'))).toBe(true);
    expect(siteMatches('localhost:3000', at('https://LOCALHOST.:3000/'))).toBe(true);
    expect(siteMatches('localhost:3000', at('http://localhost:3001/'))).toBe(false);
    expect(siteMatches('localhost:80', at('http://localhost/'))).toBe(true);
    // IDN: a Unicode entry matches the punycode a URL carries, and the reverse.
    expect(siteMatches('bücher.de', at('https://xn--bcher-kva.de/'))).toBe(true);
    expect(siteMatches('*.BÜCHER.de.', at('https://shop.xn--bcher-kva.de/'))).toBe(true);
    expect(siteMatches('https://bücher.de', at('https://xn--bcher-kva.de/'))).toBe(true);
    expect(siteMatches('xn--bcher-kva.de', at('https://xn--bcher-kva.de/'))).toBe(true);
    expect(siteMatches('bücher.de', at('https://bucher.de/'))).toBe(false);
    // IP forms: decimal, hex, octal and short IPv4 entries; bracketed IPv6 either way.
    for (const entry of ['2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '127.0.0.1.'])
      expect(siteMatches(entry, at('http://127.0.0.1:5000/')), entry).toBe(true);
    expect(siteMatches('0x7f.1', at('http://127.0.0.2/'))).toBe(false);
    expect(siteMatches('[::1]', at('http://[::1]:8080/'))).toBe(true);
    expect(siteMatches('[0:0:0:0:0:0:0:1]:8080', at('http://[::1]:8080/'))).toBe(true);
    expect(siteMatches('http://[::FFFF:127.0.0.1]', at('http://[::ffff:7f00:1]/'))).toBe(true);
    // Lookalikes stay apart.
    expect(siteMatches('paypal.com', at('https://paypal.com.evil.test/'))).toBe(false);
    expect(siteMatches('paypal.com', at('https://paypal.com@evil.test/'))).toBe(false);
  });
});
