import { describe, expect, it } from 'vitest';
import { compareReleases } from '@browser-agent/protocol';
import { UPDATE_BRIDGE, UPDATE_EXTENSION, versionSkew } from './versionSkew.js';

describe('versionSkew', () => {
  it('is silent when both sides are the same release and protocol', () => {
    expect(
      versionSkew({ release: '0.1.0', protocol: 3 }, { release: '0.1.0', protocol: 3 }),
    ).toBeUndefined();
  });

  it('blocks on a protocol difference and tells the user to update the older extension', () => {
    const skew = versionSkew({ release: '0.1.0', protocol: 2 }, { release: '0.2.0', protocol: 3 });
    expect(skew?.blocking).toBe(true);
    expect(skew?.message).toContain('extension is 0.1.0 (protocol v2)');
    expect(skew?.message).toContain('bridge (browser-agent-mcp) is 0.2.0 (protocol v3)');
    expect(skew?.hint).toContain(UPDATE_EXTENSION);
  });

  it('names the bridge when the bridge is the older side', () => {
    const skew = versionSkew({ release: '0.3.0', protocol: 4 }, { release: '0.2.0', protocol: 3 });
    expect(skew?.hint).toContain(UPDATE_BRIDGE);
  });

  it('warns without blocking on a release difference under the same protocol', () => {
    const skew = versionSkew({ release: '0.1.0', protocol: 3 }, { release: '0.1.2', protocol: 3 });
    expect(skew?.blocking).toBe(false);
    expect(skew?.hint).toContain(UPDATE_EXTENSION);
  });

  it('warns without blocking on another build of the same release, and not when either side names none', () => {
    const same = { release: '0.1.0', protocol: 3 };
    const skew = versionSkew({ ...same, build: 'aaa111' }, { ...same, build: 'bbb222' });
    expect(skew?.blocking).toBe(false);
    expect(skew?.message).toContain('extension is build aaa111');
    expect(skew?.message).toContain('bridge (browser-agent-mcp) is build bbb222');
    expect(skew?.hint).toContain(UPDATE_EXTENSION);
    expect(versionSkew({ ...same, build: 'aaa111' }, { ...same, build: 'aaa111' })).toBeUndefined();
    expect(versionSkew(same, { ...same, build: 'bbb222' })).toBeUndefined();
  });

  it('compares releases numerically', () => {
    expect(compareReleases('0.10.0', '0.9.1')).toBeGreaterThan(0);
    expect(compareReleases('1.0.0', '1.0.0')).toBe(0);
    expect(compareReleases(undefined, '1.0.0')).toBe(0);
  });
});
