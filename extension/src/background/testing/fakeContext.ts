/** A HandlerContext over a fixed list of tabs, for handler tests that need no browser. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import type { HandlerContext, TabSummary } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { newTabState } from '../tabStates';

export { newTabState };

export function fakeTab(cdp: CdpClient, tabId = 1): TabHandle {
  return { tabId, cdp, state: newTabState() };
}

export interface FakeContext extends HandlerContext {
  readonly tabs: TabHandle[];
  readonly current: number;
}

/** Tabs opened through newTab() get a CDP client from makeCdp. */
export function fakeContext(tabs: TabHandle[], makeCdp?: () => CdpClient): FakeContext {
  let current = tabs.length === 0 ? -1 : 0;
  const currentTab = (): Promise<TabHandle> => {
    const tab = tabs[current];
    return tab === undefined
      ? Promise.reject(new BridgeError(ErrorCode.NO_TAB, 'No tab.'))
      : Promise.resolve(tab);
  };
  const newTab = (): Promise<TabHandle> => {
    if (makeCdp === undefined)
      return Promise.reject(new Error('fakeContext: newTab needs makeCdp'));
    const tab = fakeTab(makeCdp(), 100 + tabs.length);
    tabs.push(tab);
    current = tabs.length - 1;
    return Promise.resolve(tab);
  };
  const summaries = (): TabSummary[] =>
    tabs.map((tab, index) => ({
      index,
      tabId: tab.tabId,
      url: `http://127.0.0.1/${index}`,
      title: `Tab ${index}`,
      current: index === current,
    }));
  return {
    sessionId: 'test-session',
    client: { name: 'test', version: '0' },
    tabs,
    get current() {
      return current;
    },
    currentTab,
    ensureTab: () => (tabs.length === 0 ? newTab() : currentTab()),
    listTabs: () => Promise.resolve(summaries()),
    newTab,
    tabById: (tabId) => {
      const tab = tabs.find((t) => t.tabId === tabId);
      if (tab === undefined)
        return Promise.reject(new Error(`fakeContext: tab ${tabId} not owned`));
      return Promise.resolve(tab);
    },
    selectTab: (index) => {
      const tab = tabs[index];
      if (tab === undefined) return Promise.reject(new Error(`fakeContext: no tab ${index}`));
      current = index;
      return Promise.resolve(tab);
    },
    closeTab: (index) => {
      tabs.splice(index ?? current, 1);
      current = Math.min(current, tabs.length - 1);
      return Promise.resolve({ left: summaries(), leaveAsked: false });
    },
  };
}
