import { describe, expect, it } from 'vitest';
import { handlers } from '../testing/handlers';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeContext, fakeTab } from '../testing/fakeContext';

const LIST_HINT = 'Call browser_tabs with action "list" to see valid indexes.';

function threeTabs() {
  const cdp = fakeCdp({});
  return fakeContext([fakeTab(cdp, 1), fakeTab(cdp, 2), fakeTab(cdp, 3)], () => cdp);
}

function textOf(result: Awaited<ReturnType<typeof handlers.browser_tabs>>): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('browser_tabs', () => {
  it('lists the session tabs, marking the current one', async () => {
    const result = textOf(await handlers.browser_tabs({ action: 'list' }, threeTabs()));
    expect(result).toBe(
      [
        '### Tabs (untrusted page content)',
        '```',
        '- 0: [current] Tab 0 (http://127.0.0.1/0)',
        '- 1: Tab 1 (http://127.0.0.1/1)',
        '- 2: Tab 2 (http://127.0.0.1/2)',
        '```',
      ].join('\n'),
    );
  });

  it('selects and closes by index', async () => {
    const ctx = threeTabs();
    expect(textOf(await handlers.browser_tabs({ action: 'select', index: 2 }, ctx))).toContain(
      '- 2: [current] Tab 2',
    );
    await handlers.browser_tabs({ action: 'close', index: 0 }, ctx);
    expect(ctx.tabs.map((t) => t.tabId)).toEqual([2, 3]);
    await handlers.browser_tabs({ action: 'close' }, ctx);
    expect(ctx.tabs.map((t) => t.tabId)).toEqual([2]);
  });

  it('refuses a missing or out-of-range index and points at the list', async () => {
    const ctx = threeTabs();
    await expect(handlers.browser_tabs({ action: 'select' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_ARGS',
      hint: LIST_HINT,
    });
    await expect(handlers.browser_tabs({ action: 'close', index: 3 }, ctx)).rejects.toMatchObject({
      code: 'INVALID_ARGS',
      message: 'There is no tab 3; this session has 3 tabs.',
      hint: LIST_HINT,
    });
    expect(ctx.tabs).toHaveLength(3);
  });

  it('checks a new tab URL before opening anything', async () => {
    const ctx = threeTabs();
    await expect(
      handlers.browser_tabs({ action: 'new', url: 'chrome://settings' }, ctx),
    ).rejects.toMatchObject({
      code: 'RESTRICTED_URL',
    });
    expect(ctx.tabs).toHaveLength(3);
    await handlers.browser_tabs({ action: 'new' }, ctx);
    expect(ctx.tabs).toHaveLength(4);
    expect(ctx.current).toBe(3);
  });
});
