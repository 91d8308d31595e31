/**
 * A tab that shows a PDF in Chrome's own viewer. The viewer is another extension's page inside
 * the tab, and Chrome detaches a debugger from a tab as that page comes in: a click or navigate
 * that opened a PDF failed with DEBUGGER_DETACHED although the PDF opened, and the snapshot
 * after it was empty without a word. The next attach works (the top document is the PDF's own,
 * of type application/pdf), so the call is answered with what happened instead.
 */
import {
  BridgeError,
  ErrorCode,
  textResult,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import type { Handler, HandlerContext } from '../handlerContext';
import { oneLine } from '../common/text';

const PDF_TYPE = 'application/pdf';

/** The tab's top document is a PDF (shown by the viewer, or plugin-less as bytes). */
export async function isPdfDocument(cdp: CdpClient): Promise<boolean> {
  const { frameTree } = await cdp.send('Page.getFrameTree').catch(() => ({ frameTree: undefined }));
  return frameTree?.frame.mimeType === PDF_TYPE;
}

/** What the agent can do on a PDF tab, said once for the snapshot and the detached call. */
export const PDF_PAGE_NOTE =
  "The page is a PDF shown in Chrome's PDF viewer: its text is not in the page outline. browser_take_screenshot shows it; browser_navigate or browser_navigate_back leaves it.";

/**
 * Wraps a handler: a call that lost the debugger because the tab opened a PDF is answered with
 * where the tab is now (its commands after the detach did not run), not DEBUGGER_DETACHED.
 */
export function answeringPdfDetach<N extends ToolName>(
  title: string,
  handler: Handler<N>,
): Handler<N> {
  return async (args, ctx) => {
    try {
      return await handler(args, ctx);
    } catch (err) {
      if (!(err instanceof BridgeError) || err.code !== ErrorCode.DEBUGGER_DETACHED) throw err;
      const answer = await pdfAnswer(title, ctx).catch(() => undefined);
      if (answer === undefined) throw err;
      return answer;
    }
  };
}

async function pdfAnswer(title: string, ctx: HandlerContext): Promise<ToolResult | undefined> {
  if (ctx.signal?.aborted === true) return undefined;
  const tab = await ctx.currentTab();
  if (!(await isPdfDocument(tab.cdp))) return undefined;
  const url = (await chrome.tabs.get(tab.tabId).catch(() => undefined))?.url ?? '';
  tab.state.lastOutline = undefined;
  return textResult(
    [
      `${title}: the tab opened a PDF, ${oneLine(url, 300)}, and Chrome's PDF viewer took the page over mid-call (the rest of the call's page work did not run).`,
      PDF_PAGE_NOTE,
    ].join('\n'),
  );
}
