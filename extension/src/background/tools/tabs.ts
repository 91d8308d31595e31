/** Tabs area's handler: list, open, select and close the session's tabs. */
import {
  BridgeError,
  ErrorCode,
  textResult,
  type TabsOutput,
  type ToolResult,
} from '@browser-agent/protocol';
import type { AreaHandlers, Handler, HandlerContext, TabSummary } from '../handlerContext';
import { Hint } from '../common/hints';
import { navigateTab } from '../loading/load';
import { oneLine, untrustedSection } from '../common/text';
import { checkNavigableUrl } from '../loading/urlPolicy';

export const tabs: Handler<'browser_tabs'> = async (args, ctx) => {
  switch (args.action) {
    case 'list':
      if (ctx.settings?.startsWithBlankTab === true) await ctx.ensureTab();
      return tabsResult('', await ctx.listTabs());
    case 'new': {
      // An empty url means none; a given one is checked before the tab exists.
      const url =
        args.url === undefined || args.url === ''
          ? undefined
          : checkNavigableUrl(args.url, ctx.settings?.allowFileUrls === true);
      const background = args.background === true;
      const tab = await ctx.newTab(undefined, { background });
      if (url !== undefined)
        await navigateTab(tab, url, ctx.settings?.navigationTimeoutMs, ctx.signal);
      const how = background ? ' in the background (the current tab is unchanged)' : '';
      return tabsResult(`Opened a new tab${how}.\n`, await ctx.listTabs());
    }
    case 'select': {
      const index = await indexOf(ctx, args.index, args.tabId, 'select');
      await ctx.selectTab(index);
      return tabsResult(`Selected tab ${index}.\n`, await ctx.listTabs());
    }
    case 'close': {
      const index =
        args.index === undefined && args.tabId === undefined
          ? undefined
          : await indexOf(ctx, args.index, args.tabId, 'close');
      const { left, leaveAsked } = await ctx.closeTab(index);
      const which = index === undefined ? 'the current tab' : `tab ${index}`;
      const asked = leaveAsked
        ? ' Its page asked before leaving (a beforeunload dialog, as for unsaved changes); closing answered it "leave".'
        : '';
      return tabsResult(`Closed ${which}.${asked}\n`, left);
    }
  }
};

/** The tab list as text and as data (the contract's output). */
function tabsResult(done: string, list: TabSummary[]): ToolResult {
  const data: TabsOutput = { tabs: list };
  return textResult(`${done}${formatTabs(list)}`, data);
}

/** The index a call names, by index or by Chrome tab id (NOT_OWNER for a tab not this session's). */
async function indexOf(
  ctx: HandlerContext,
  index: number | undefined,
  tabId: number | undefined,
  action: string,
): Promise<number> {
  if (tabId === undefined) return checkIndex(ctx, index, action);
  if (index !== undefined) {
    throw new BridgeError(ErrorCode.INVALID_ARGS, 'Give index or tabId, not both.', Hint.listTabs);
  }
  await ctx.tabById(tabId);
  const found = (await ctx.listTabs()).find((t) => t.tabId === tabId);
  if (found === undefined) {
    throw new BridgeError(ErrorCode.TAB_CLOSED, `Tab ${tabId} is gone.`, Hint.listTabs);
  }
  return found.index;
}

async function checkIndex(
  ctx: HandlerContext,
  index: number | undefined,
  action: string,
): Promise<number> {
  if (index === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Action "${action}" needs a tab index.`,
      Hint.listTabs,
    );
  }
  const count = (await ctx.listTabs()).length;
  if (index >= count) {
    const has = count === 1 ? '1 tab' : `${count} tabs`;
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `There is no tab ${index}; this session has ${has}.`,
      Hint.listTabs,
    );
  }
  return index;
}

function formatTabs(list: readonly TabSummary[]): string {
  if (list.length === 0) return 'This session has no tabs.';
  const lines = list.map((tab) => {
    const current = tab.current ? '[current] ' : '';
    const title = oneLine(tab.title, 200) || '(untitled)';
    return `- ${tab.index}: ${current}${title} (${oneLine(tab.url, 500)})`;
  });
  return untrustedSection('Tabs', lines.join('\n'));
}

/** The tabs area's handlers, by tool name. */
export const tabsHandlers = {
  browser_tabs: tabs,
} satisfies AreaHandlers;
