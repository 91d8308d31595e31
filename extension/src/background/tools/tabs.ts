import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import type { Handler, HandlerContext, TabSummary } from '../handlerContext';
import { Hint } from './hints';
import { navigateTab } from './pageLoad';
import { oneLine, untrustedSection } from './text';
import { checkNavigableUrl } from './urlPolicy';

export const tabs: Handler<'browser_tabs'> = async (args, ctx) => {
  switch (args.action) {
    case 'list':
      return textResult(formatTabs(await ctx.listTabs()));
    case 'new': {
      // An empty url means none; a given one is checked before the tab exists.
      const url =
        args.url === undefined || args.url === '' ? undefined : checkNavigableUrl(args.url);
      const background = args.background === true;
      const tab = await ctx.newTab(undefined, { background });
      if (url !== undefined) await navigateTab(tab, url);
      const how = background ? ' in the background (the current tab is unchanged)' : '';
      return textResult(`Opened a new tab${how}.\n${formatTabs(await ctx.listTabs())}`);
    }
    case 'select': {
      const index = await checkIndex(ctx, args.index, 'select');
      await ctx.selectTab(index);
      return textResult(`Selected tab ${index}.\n${formatTabs(await ctx.listTabs())}`);
    }
    case 'close': {
      const index =
        args.index === undefined ? undefined : await checkIndex(ctx, args.index, 'close');
      await ctx.closeTab(index);
      const which = index === undefined ? 'the current tab' : `tab ${index}`;
      return textResult(`Closed ${which}.\n${formatTabs(await ctx.listTabs())}`);
    }
  }
};

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
