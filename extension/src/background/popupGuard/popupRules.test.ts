import { describe, expect, it } from 'vitest';
import { checkOrigin, type OriginPolicy } from '@browser-agent/protocol';
import { entryRegexes, popupRules, PRIVATE_REGEXES } from './popupRules';

/** The URL as Chrome matches it: canonical, as the URL parser writes it. */
const canonical = (url: string): string => new URL(url).href;
const matchesAny = (regexes: readonly string[], url: string): boolean =>
  regexes.some((r) => new RegExp(r, 'i').test(canonical(url)));

describe('popup rules: origin entries as regexes', () => {
  const cases: [entry: string, url: string][] = [
    ['https://shop.test', 'https://shop.test/cart'],
    ['https://shop.test', 'https://shop.test:443/'],
    ['https://shop.test', 'https://shop.test:8443/'],
    ['https://shop.test', 'http://shop.test/'],
    ['shop.test', 'http://shop.test:3000/x'],
    ['shop.test', 'https://evil-shop.test/'],
    ['shop.test', 'https://shop.test.evil.com/'],
    ['*.shop.test', 'https://a.b.shop.test/'],
    ['*.shop.test', 'https://shop.test/'],
    ['shop.test:3000', 'http://shop.test:3000/'],
    ['shop.test:3000', 'http://shop.test:3001/'],
    ['http://shop.test:*', 'http://shop.test:9/'],
    ['http://127.0.0.2:4000', 'http://127.0.0.2:4000/secret?q=1'],
    ['localhost', 'http://LOCALHOST.:8080/'],
    ['https://shop.test', 'https://user:pw@shop.test/'],
  ];
  for (const [entry, url] of cases) {
    it(`${entry} vs ${url}: as checkOrigin decides`, () => {
      const blocked = !checkOrigin({ blockedOrigins: [entry] }, url).allowed;
      expect(matchesAny(entryRegexes(entry) ?? [], url)).toBe(blocked);
    });
  }

  it('refuses what the config would refuse', () => {
    expect(entryRegexes('https://a.com/path')).toBeUndefined();
  });
});

describe('popup rules: private network', () => {
  it('covers every private spelling checkOrigin refuses, once canonical', () => {
    for (const host of [
      '127.0.0.1',
      '0x7f.1',
      '2130706433',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[fd12:3456::1]',
      '[fe80::1]',
      'localhost',
      'app.localhost.',
    ]) {
      const url = `http://${host}:8080/`;
      expect(checkOrigin({ blockPrivateNetwork: true }, url).allowed, host).toBe(false);
      expect(matchesAny(PRIVATE_REGEXES, url), host).toBe(true);
    }
  });

  it('leaves public hosts alone, including names that start with fc or fd', () => {
    for (const host of ['8.8.8.8', 'fcbank.com', 'fd.example', '[2001:db8::1]', '[fc::1]'])
      expect(matchesAny(PRIVATE_REGEXES, `https://${host}/`), host).toBe(false);
  });
});

describe('popup rules: a policy', () => {
  const scope = { initiatorDomains: ['127.0.0.1'], excludedTabIds: [1, 2] };

  it('blocks explicit entries and private hosts above the allow list, and the rest below it', () => {
    const policy: OriginPolicy = {
      allowedOrigins: ['https://shop.test'],
      blockedOrigins: ['bank.test'],
      blockPrivateNetwork: true,
    };
    const rules = popupRules(policy, scope, 10);
    expect(rules.map((r) => r.id)).toEqual(rules.map((_, i) => 10 + i));
    const by = (type: string, priority: number) =>
      rules.filter((r) => r.action.type === type && r.priority === priority);
    expect(by('block', 3).length).toBe(2 + PRIVATE_REGEXES.length);
    expect(by('allow', 2).length).toBe(1);
    expect(by('block', 1).map((r) => r.condition.regexFilter)).toEqual(['^https?://']);
    for (const r of rules) {
      expect(r.condition.resourceTypes).toEqual(['main_frame', 'sub_frame']);
      expect(r.condition.initiatorDomains).toEqual(['127.0.0.1']);
      expect(r.condition.excludedTabIds).toEqual([1, 2]);
    }
  });

  it('leaves excludedTabIds out when no tab is known (Chrome refuses an empty list)', () => {
    const [rule] = popupRules(
      { blockedOrigins: ['bank.test'] },
      { ...scope, excludedTabIds: [] },
      1,
    );
    expect(rule?.condition).not.toHaveProperty('excludedTabIds');
  });

  it('makes no rule for a policy with nothing in it', () => {
    expect(popupRules({}, scope, 1)).toEqual([]);
  });
});
