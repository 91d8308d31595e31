import { describe, expect, it } from 'vitest';
import { captureConsole } from './consoleCapture';
import { newTabState } from '../tabStates';
import { fakeCdp } from '../testing/fakeCdp';

describe('captureConsole', () => {
  it("leaves out the browser's own favicon.ico failure, keeps the page's failed loads (#27)", () => {
    const cdp = fakeCdp({});
    const state = newTabState();
    captureConsole(cdp, state);
    const failed = (url: string) =>
      cdp.emit('Log.entryAdded', {
        entry: {
          source: 'network',
          level: 'error',
          text: 'Failed to load resource: the server responded with a status of 404 (Not Found)',
          url,
          timestamp: 1,
        },
      });
    failed('http://127.0.0.1:5173/favicon.ico');
    failed('http://127.0.0.1:5173/api/items');
    expect(state.console.map((e) => e.location)).toEqual(['http://127.0.0.1:5173/api/items:1']);
  });
});
