import { textResult } from '@browser-agent/protocol';
import type { Handler } from '../handlerContext';
import { goBack, navigateTab } from './pageLoad';
import { formatPageInfo } from './pageInfo';
import { oneLine } from './text';
import { checkNavigableUrl } from './urlPolicy';

export const navigate: Handler<'browser_navigate'> = async (args, ctx) => {
  // Checked before a tab is opened, so a refused URL leaves nothing behind.
  const url = checkNavigableUrl(args.url);
  const tab = await ctx.ensureTab();
  const info = await navigateTab(tab, url);
  return textResult(`Navigated to ${oneLine(url, 200)}\n${formatPageInfo(info)}`);
};

export const navigateBack: Handler<'browser_navigate_back'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  const info = await goBack(tab);
  return textResult(`Went back.\n${formatPageInfo(info)}`);
};
