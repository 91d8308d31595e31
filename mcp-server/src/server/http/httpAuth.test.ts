import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasBearer, httpConfigSnippet, loadOrCreateHttpToken } from './httpAuth.js';
import { parseHttpFlags } from './httpOptions.js';

const dir = mkdtempSync(join(tmpdir(), 'ba-http-auth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the HTTP bearer token', () => {
  it('is generated once, kept 0600, and compared exactly', () => {
    const token = loadOrCreateHttpToken(dir);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(loadOrCreateHttpToken(dir)).toBe(token);
    if (process.platform !== 'win32')
      expect(statSync(join(dir, 'http-token')).mode & 0o777).toBe(0o600);
    expect(hasBearer({ authorization: `Bearer ${token}` }, token)).toBe(true);
    expect(hasBearer({ authorization: `bearer ${token}` }, token)).toBe(true);
    expect(hasBearer({}, token)).toBe(false);
    expect(hasBearer({ authorization: `Bearer ${token}x` }, token)).toBe(false);
    expect(hasBearer({ authorization: token }, token)).toBe(false);
    expect(httpConfigSnippet('http://127.0.0.1:1/mcp', token)).toContain(`Bearer ${token}`);
  });

  it('may be turned off on a loopback bind only', () => {
    expect(parseHttpFlags('0', undefined, true)).toEqual({
      port: 0,
      host: '127.0.0.1',
      noToken: true,
    });
    expect(parseHttpFlags('0', '0.0.0.0', true)).toMatch(/--no-token is refused/);
    expect(parseHttpFlags('0', '192.168.1.5', true)).toMatch(/--no-token is refused/);
    expect(parseHttpFlags('0', '0.0.0.0', undefined)).toEqual({ port: 0, host: '0.0.0.0' });
    expect(parseHttpFlags(undefined, undefined, true)).toMatch(/only applies with --port/);
  });
});
