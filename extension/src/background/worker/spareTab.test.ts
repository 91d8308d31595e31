import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpareTab } from './spareTab';
import { EXTENSION_ID, handoffContext, relayPageSender } from '../testing/relaySender';

const ID = EXTENSION_ID;
const TARGET = '0123456789ABCDEF0123456789ABCDEF';
const STARTUP_TAB = 1;
const RELAY = `chrome-extension://${ID}/src/sidepanel/index.html?port=41234&launch=1&spare=${TARGET}`;

const where = handoffContext(false);

/** The relay page a launched browser opens: the top frame of a regular tab. */
function relayPage(overrides: Partial<chrome.runtime.MessageSender> = {}) {
  return relayPageSender(RELAY, false, overrides);
}

/** Chrome with the startup tab as `tab` says (blank, nobody's opener, by default). */
function browserWith(tab: Partial<chrome.tabs.Tab> | undefined): void {
  vi.stubGlobal('chrome', {
    debugger: {
      getTargets: () =>
        Promise.resolve([
          { id: 'FEDCBA9876543210FEDCBA9876543210', type: 'page', tabId: 2 },
          { id: TARGET, type: 'page', tabId: STARTUP_TAB },
        ]),
    },
    tabs: {
      get: (tabId: number) =>
        tab === undefined || tabId !== STARTUP_TAB
          ? Promise.reject(new Error(`No tab with id: ${tabId}.`))
          : Promise.resolve({
              id: STARTUP_TAB,
              url: 'about:blank',
              incognito: false,
              active: false,
              ...tab,
            }),
    },
  });
}

const nobodys = (): Promise<undefined> => Promise.resolve(undefined);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the startup tab a launched browser gives its first session', () => {
  it('is the tab the relay page names, handed out once', async () => {
    browserWith({});
    const spare = new SpareTab();
    expect(await spare.offer(TARGET, relayPage(), where)).toBe(true);
    const [first, second] = await Promise.all([spare.take(nobodys), spare.take(nobodys)]);
    expect(first?.id).toBe(STARTUP_TAB);
    expect(second, 'a second session racing for it gets a tab of its own').toBeUndefined();
    expect(await spare.take(nobodys)).toBeUndefined();
  });

  it.each<[string, Partial<chrome.runtime.MessageSender> | undefined]>([
    ['no sender', undefined],
    ['another extension', { id: 'otherextension' }],
    ['a content script in a web page', { url: `https://evil.test/?launch=1&spare=${TARGET}` }],
    ['the side panel (no launch)', { url: `chrome-extension://${ID}/src/sidepanel/index.html` }],
    ['a frame inside the relay page', { frameId: 3 }],
    ['no tab (another extension context)', { tab: undefined }],
  ])('is not taken from %s', async (_name, sender) => {
    browserWith({});
    const spare = new SpareTab();
    const from = sender === undefined ? undefined : relayPage(sender);
    expect(await spare.offer(TARGET, from, where)).toBe(false);
    expect(await spare.take(nobodys)).toBeUndefined();
  });

  it.each([['not a target id'], [42], [`${TARGET}0`], [undefined]])(
    'refuses %s as the target',
    async (target) => {
      browserWith({});
      const spare = new SpareTab();
      expect(await spare.offer(target, relayPage(), where)).toBe(false);
    },
  );

  it('refuses a target that is no tab of this browser', async () => {
    browserWith({});
    const spare = new SpareTab();
    expect(await spare.offer('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', relayPage(), where)).toBe(false);
  });

  it.each<[string, Partial<chrome.tabs.Tab> | undefined]>([
    ['closed since', undefined],
    ['opened by a page (window.open of about:blank)', { openerTabId: 9 }],
    ['navigated by the person', { url: 'https://example.test/' }],
    ['on its way somewhere', { pendingUrl: 'https://example.test/' }],
  ])('is not given when it was %s', async (_name, tab) => {
    browserWith(tab);
    const spare = new SpareTab();
    await spare.offer(TARGET, relayPage(), where);
    expect(await spare.take(nobodys)).toBeUndefined();
  });

  it('is not given when a session owns it already', async () => {
    browserWith({});
    const spare = new SpareTab();
    await spare.offer(TARGET, relayPage(), where);
    expect(await spare.take(() => Promise.resolve({ sessionId: 'other' }))).toBeUndefined();
  });

  it('waits for an adoption still asking Chrome, so the first call gets the tab', async () => {
    browserWith({});
    let answer: (targets: chrome.debugger.TargetInfo[]) => void = () => undefined;
    const real = chrome.debugger.getTargets;
    chrome.debugger.getTargets = () => new Promise((resolve) => (answer = resolve));
    const spare = new SpareTab();
    const adopted = spare.adopt(TARGET);
    const taken = spare.take(nobodys);
    answer(await real());
    expect(await adopted).toBe(true);
    expect((await taken)?.id, 'the take came before Chrome answered').toBe(STARTUP_TAB);
  });

  it('gives no tab when Chrome could not list its targets, and does not throw', async () => {
    browserWith({});
    chrome.debugger.getTargets = () => Promise.reject(new Error('Browser is shutting down'));
    const spare = new SpareTab();
    expect(await spare.adopt(TARGET)).toBe(false);
    expect(await spare.take(nobodys)).toBeUndefined();
  });
});
