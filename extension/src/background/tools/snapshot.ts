import { textResult } from '@browser-agent/protocol';
import type { Handler, TabHandle } from '../handlerContext';
import { pageOutline } from './frameOutlines';
import { formatOutline } from './outlineFormat';
import { formatPageInfo, pageInfo } from './pageInfo';
import { assignRefs } from './refTable';
import { hideSecretValues } from './secretFields';
import { capText, untrustedSection } from './text';

/** Past this an outline is cut; a page that large needs browser_evaluate or a screenshot anyway. */
const MAX_SNAPSHOT_CHARS = 200_000;

export const snapshot: Handler<'browser_snapshot'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  return textResult(await takeSnapshot(tab));
};

/** The page's URL and title, then its accessibility outline with refs. */
async function takeSnapshot(tab: TabHandle): Promise<string> {
  const [outline, info] = await Promise.all([pageOutline(tab.cdp), pageInfo(tab.cdp)]);
  await hideSecretValues(tab.cdp, outline);
  assignRefs(tab.state, outline);
  const body = capText(formatOutline(outline), MAX_SNAPSHOT_CHARS);
  return `${formatPageInfo(info)}\n${untrustedSection('Page snapshot', body, 'yaml')}`;
}
