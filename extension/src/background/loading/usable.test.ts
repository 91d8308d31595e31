import { describe, expect, it } from 'vitest';
import { stillLoadingReport } from './usable';
import { newTabState, type NetworkEntry, type TabHandle } from '../tabStates';

function entry(url: string, extra: Partial<NetworkEntry> = {}): NetworkEntry {
  return {
    index: 1,
    id: url,
    url,
    method: 'GET',
    resourceType: 'Other',
    status: undefined,
    statusText: '',
    mimeType: '',
    requestHeaders: {},
    responseHeaders: {},
    hasPostData: false,
    failure: undefined,
    finished: false,
    startedAt: 10,
    ...extra,
  };
}

describe("a navigate's still-loading line", () => {
  it("does not list the browser's own favicon request, which no page work waits on (#26)", () => {
    const state = newTabState();
    state.network.push(entry('http://127.0.0.1/favicon.ico', { browsersOwn: true }));
    const tab = { state } as unknown as TabHandle;
    expect(stillLoadingReport(tab, 0)).toBe('');
    state.network.push(entry('http://127.0.0.1/app.js', { resourceType: 'Script' }));
    expect(stillLoadingReport(tab, 0)).toContain('1 request(s) (1 script)');
  });
});
