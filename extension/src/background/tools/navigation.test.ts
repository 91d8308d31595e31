import { afterEach, describe, expect, it, vi } from 'vitest';
import { handlers } from '../testing/handlers';
import { fakeCdp, type FakeCdp } from '../testing/fakeCdp';
import { fakeContext, fakeTab } from '../testing/fakeContext';
import { MAIN_FRAME_ID, navigationScript } from '../testing/fakePage';

/** A tab whose Page.navigate answers `answer`; `afterNavigate` may fire the events that follow. */
function tabNavigating(
  answer: { errorText?: string; loaderId?: string },
  afterNavigate: (cdp: FakeCdp) => void = () => undefined,
) {
  const cdp: FakeCdp = fakeCdp({
    ...navigationScript(['http://127.0.0.1/start', 'http://127.0.0.1/next']),
    'Page.navigate': () => {
      setTimeout(() => afterNavigate(cdp), 0);
      return { frameId: MAIN_FRAME_ID, ...answer };
    },
  });
  return { cdp, ctx: fakeContext([fakeTab(cdp)]) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('browser_navigate', () => {
  it('waits for the load event, then reports the page', async () => {
    let loaded = false;
    const { ctx } = tabNavigating({ loaderId: 'L1' }, (cdp) => {
      cdp.emit('Page.frameStartedLoading', { frameId: MAIN_FRAME_ID });
      setTimeout(() => {
        loaded = true;
        cdp.emit('Page.loadEventFired', { timestamp: 1 });
      }, 100);
    });
    const result = await handlers.browser_navigate({ url: 'http://127.0.0.1/next' }, ctx);
    expect(loaded).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: 'Navigated to http://127.0.0.1/next\n- Page URL: http://127.0.0.1/next\n- Page Title: "Page 1"',
    });
  });

  it('does not wait when the navigation stays in the document', async () => {
    const { ctx } = tabNavigating({});
    await handlers.browser_navigate({ url: 'http://127.0.0.1/next#part' }, ctx);
  });

  it('reports a network error with the URL and a hint', async () => {
    const { ctx } = tabNavigating({ loaderId: 'L1', errorText: 'net::ERR_NAME_NOT_RESOLVED' });
    await expect(
      handlers.browser_navigate({ url: 'http://shop.invalid/' }, ctx),
    ).rejects.toMatchObject({
      code: 'NAVIGATION_FAILED',
      message: 'Navigation to http://shop.invalid/ failed: net::ERR_NAME_NOT_RESOLVED.',
      hint: 'Is the server running? Check the URL.',
    });
  });

  it('asks whether the dev server runs when a localhost port refuses', async () => {
    const { ctx } = tabNavigating({ loaderId: 'L1', errorText: 'net::ERR_CONNECTION_REFUSED' });
    await expect(
      handlers.browser_navigate({ url: 'http://localhost:5173/' }, ctx),
    ).rejects.toMatchObject({
      code: 'NAVIGATION_FAILED',
      hint: expect.stringContaining('is the dev server running on that port?') as unknown,
    });
    await expect(
      handlers.browser_navigate({ url: 'http://localhost:5173/' }, ctx),
    ).rejects.toMatchObject({ hint: expect.stringContaining('port 5173') as unknown });
  });

  it('gives up after 30 s without a load event', async () => {
    vi.useFakeTimers();
    const { ctx } = tabNavigating({ loaderId: 'L1' });
    const navigation = handlers.browser_navigate({ url: 'http://127.0.0.1/slow' }, ctx);
    const outcome = expect(navigation).rejects.toMatchObject({ code: 'NAVIGATION_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(30_000);
    await outcome;
  });

  it('refuses restricted and malformed URLs without opening a tab', async () => {
    let opened = 0;
    const ctx = fakeContext([], () => {
      opened += 1;
      return fakeCdp({});
    });
    await expect(
      handlers.browser_navigate({ url: 'chrome://extensions' }, ctx),
    ).rejects.toMatchObject({
      code: 'RESTRICTED_URL',
    });
    await expect(handlers.browser_navigate({ url: 'not a url' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_ARGS',
    });
    expect(opened).toBe(0);
  });
});

describe('browser_navigate_back', () => {
  it('goes to the previous entry and waits for it', async () => {
    const cdp: FakeCdp = fakeCdp({
      ...navigationScript(['http://127.0.0.1/start', 'http://127.0.0.1/next']),
      'Page.navigateToHistoryEntry': () => {
        setTimeout(() => cdp.emit('Page.loadEventFired', { timestamp: 1 }), 20);
      },
    });
    await handlers.browser_navigate_back({}, fakeContext([fakeTab(cdp)]));
    expect(cdp.calls.find((c) => c.method === 'Page.navigateToHistoryEntry')?.params).toEqual({
      entryId: 1,
    });
  });

  it('refuses when there is no previous page, or when it is a Chrome page', async () => {
    const first = fakeCdp(navigationScript(['http://127.0.0.1/only']));
    await expect(
      handlers.browser_navigate_back({}, fakeContext([fakeTab(first)])),
    ).rejects.toMatchObject({
      code: 'NAVIGATION_FAILED',
      hint: 'Use browser_navigate to open a URL.',
    });
    const afterNewTab = fakeCdp(navigationScript(['chrome://newtab/', 'http://127.0.0.1/']));
    await expect(
      handlers.browser_navigate_back({}, fakeContext([fakeTab(afterNewTab)])),
    ).rejects.toMatchObject({
      code: 'RESTRICTED_URL',
    });
  });
});
