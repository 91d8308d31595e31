import { describe, expect, it } from 'vitest';
import { checkNavigableUrl, isRestrictedUrl } from './urlPolicy';

function codeOf(url: string): string {
  try {
    checkNavigableUrl(url);
    return 'OK';
  } catch (err) {
    return err instanceof Error && 'code' in err ? String(err.code) : 'THREW';
  }
}

describe('checkNavigableUrl', () => {
  it.each([
    'http://127.0.0.1:3000/',
    'https://example.com/path?q=1#x',
    'about:blank',
    'data:text/html,<h1>hi</h1>',
  ])('allows %s', (url) => {
    expect(codeOf(url)).toBe('OK');
  });

  it.each([
    'chrome://settings',
    'chrome-extension://abcdefghijklmnop/popup.html',
    'devtools://devtools/bundled/inspector.html',
    'chrome-untrusted://terminal/',
    'view-source:https://example.com/',
    'file:///etc/passwd',
    'about:settings',
    'https://chromewebstore.google.com/detail/x/abc',
    'https://CHROMEWEBSTORE.google.com./',
    'https://chrome.google.com/webstore/category/extensions',
  ])('refuses %s as restricted', (url) => {
    expect(codeOf(url)).toBe('RESTRICTED_URL');
  });

  it.each(['localhost:3000', 'example.com', 'javascript:alert(1)', 'ftp://example.com/', ''])(
    'calls %s invalid',
    (url) => {
      expect(codeOf(url)).toBe('INVALID_ARGS');
    },
  );

  it('leaves the rest of Google alone and normalises what it returns', () => {
    expect(checkNavigableUrl('https://chrome.google.com/webstorefront')).toBe(
      'https://chrome.google.com/webstorefront',
    );
    expect(checkNavigableUrl('  HTTP://Example.COM  ')).toBe('http://example.com/');
  });

  it('spots restricted history entries', () => {
    expect(isRestrictedUrl('chrome://newtab/')).toBe(true);
    expect(isRestrictedUrl('http://127.0.0.1/')).toBe(false);
  });
});
