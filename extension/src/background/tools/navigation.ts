import { textResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { assertNoDialog } from '../recorders/dialogs';
import { goInHistory, navigateTab, reloadTab } from '../loading/load';
import { formatPageInfo } from '../loading/pageInfo';
import { oneLine } from '../common/text';
import { checkNavigableUrl } from '../loading/urlPolicy';

/** A new document: the agent's last snapshot no longer describes it. */
function forgetLastLook(tab: TabHandle): void {
  tab.state.lastOutline = undefined;
}

export const navigate: Handler<'browser_navigate'> = async (args, ctx) => {
  // Checked before a tab is opened, so a refused URL leaves nothing behind.
  const url = checkNavigableUrl(args.url, ctx.settings?.allowFileUrls === true);
  const tab = await ctx.ensureTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await navigateTab(tab, url, ctx.settings?.navigationTimeoutMs);
  return textResult(`Navigated to ${oneLine(url, 200)}\n${formatPageInfo(info)}`);
};

export const navigateBack: Handler<'browser_navigate_back'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await goInHistory(tab, -1, ctx.settings?.navigationTimeoutMs);
  return textResult(`Went back.\n${formatPageInfo(info)}`);
};

export const navigateForward: Handler<'browser_navigate_forward'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await goInHistory(tab, 1, ctx.settings?.navigationTimeoutMs);
  return textResult(`Went forward.\n${formatPageInfo(info)}`);
};

export const reload: Handler<'browser_reload'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await reloadTab(tab, args.ignoreCache === true, ctx.settings?.navigationTimeoutMs);
  return textResult(`Reloaded.\n${formatPageInfo(info)}`);
};

export const resize: Handler<'browser_resize'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  // Emulation rather than resizing the window: the window is the user's, and may hold other tabs.
  await tab.cdp.send('Emulation.setDeviceMetricsOverride', {
    width: args.width,
    height: args.height,
    deviceScaleFactor: 0,
    mobile: false,
  });
  return textResult(`Resized the viewport to ${args.width}×${args.height} CSS px.`);
};

export const close: Handler<'browser_close'> = async (_args, ctx) => {
  const tabs = await ctx.listTabs();
  // Highest index first, so the indexes still to close stay valid.
  for (const tab of [...tabs].reverse()) await ctx.closeTab(tab.index);
  return textResult(
    `Closed ${tabs.length} tab(s) of this session. browser_navigate opens a new one.`,
  );
};

/** The navigation area's handlers, by tool name. */
export const navigationHandlers = {
  browser_navigate: navigate,
  browser_navigate_back: navigateBack,
  browser_navigate_forward: navigateForward,
  browser_reload: reload,
  browser_resize: resize,
  browser_close: close,
} satisfies AreaHandlers;
