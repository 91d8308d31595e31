import { describe, expect, it } from 'vitest';
import type { CdpPipe } from './cdpPipe.js';
import { findBrowser } from './browserSpawn.js';
import { relayPageUrl, startupBlankTab } from './chromeLauncher.js';

describe('findBrowser', () => {
  it('refuses a named browser that does not exist, naming every setting that can give it', () => {
    expect(() => findBrowser('/nonexistent/chrome')).toThrow(
      /\/nonexistent\/chrome\. Fix the setting that names it \(--executable-path, the CHROME_PATH environment variable or browser\.executablePath/,
    );
  });
});

const BLANK = '0123456789ABCDEF0123456789ABCDEF';

function pipeWith(targetInfos: { targetId: string; type: string; url: string }[]): CdpPipe {
  return { send: () => Promise.resolve({ targetInfos }) } as unknown as CdpPipe;
}

describe('the startup tab handed to the relay page', () => {
  it('is the blank page Chromium opened, not the extension or another page', async () => {
    const pipe = pipeWith([
      { targetId: 'A'.repeat(32), type: 'service_worker', url: 'chrome-extension://x/sw.js' },
      { targetId: 'B'.repeat(32), type: 'page', url: 'https://example.test/' },
      { targetId: BLANK, type: 'page', url: 'about:blank' },
    ]);
    expect(await startupBlankTab(pipe)).toBe(BLANK);
    expect(await startupBlankTab(pipeWith([]))).toBeUndefined();
  });

  it('rides in the query, before the pairing fragment that never leaves the browser', () => {
    const pairing = {
      id: 'p1',
      secret: 'c2VjcmV0',
      label: 'Launched browser',
      createdAt: '2026-11-27T00:00:00.000Z',
    };
    const url = new URL(relayPageUrl(41234, { noPolicy: true, pairing, spareTarget: BLANK }));
    expect(url.searchParams.get('spare')).toBe(BLANK);
    expect(url.searchParams.get('launch')).toBe('1');
    expect(url.searchParams.get('policy')).toBe('none');
    expect(url.hash).toContain('pair=');
    const plain = new URL(relayPageUrl(41234, { noPolicy: false, pairing }));
    expect(plain.searchParams.has('spare')).toBe(false);
    expect(
      plain.searchParams.has('policy'),
      'policy files may exist: the lists are waited for',
    ).toBe(false);
  });

  it('carries no pairing and no spare tab once the worker took the link over the pipe', () => {
    const url = new URL(relayPageUrl(41234, { noPolicy: true }));
    expect(url.hash).toBe('');
    expect(url.searchParams.has('spare')).toBe(false);
    expect(url.searchParams.get('port')).toBe('41234');
  });
});
