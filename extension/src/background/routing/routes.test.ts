import { describe, expect, it } from 'vitest';
import { globToRegExp } from './routes';

describe('globToRegExp', () => {
  it('matches Playwright-style URL globs against the whole URL', () => {
    const api = globToRegExp('**/api/users');
    expect(api.test('http://127.0.0.1:8080/api/users')).toBe(true);
    expect(api.test('http://127.0.0.1:8080/api/users/1')).toBe(false);
    const images = globToRegExp('**/*.{png,jpg}');
    expect(images.test('https://x.test/a/b.png')).toBe(true);
    expect(images.test('https://x.test/a/b.jpg')).toBe(true);
    expect(images.test('https://x.test/a/b.gif')).toBe(false);
    const oneSegment = globToRegExp('http://x.test/*/end');
    expect(oneSegment.test('http://x.test/a/end')).toBe(true);
    expect(oneSegment.test('http://x.test/a/b/end')).toBe(false);
    // Regexp characters in the pattern are literal.
    expect(globToRegExp('http://x.test/a+b(c)').test('http://x.test/a+b(c)')).toBe(true);
    expect(globToRegExp('http://x.test/a.b').test('http://x.test/aXb')).toBe(false);
  });
});
