/** Navigation area's handlers: navigate, back, forward, reload, resize, close. */
import { textResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { assertNoDialog } from '../recorders/dialogs';
import { goInHistory, navigateTab, reloadTab, type LoadedPage } from '../loading/load';
import { formatPageInfo } from '../loading/pageInfo';
import { formatDocumentResponse } from '../loading/documentResponse';
import { oneLine } from '../common/text';
import { checkNavigableUrl } from '../loading/urlPolicy';

/**
 * The page a navigation ended on, as text (URL, title, HTTP status with a warning for 4xx/5xx,
 * what is still loading) and as structured content beside it.
 */
function loadedResult(headline: string, info: LoadedPage) {
  const text = `${headline}\n${formatPageInfo(info)}${formatDocumentResponse(info.response)}${info.pending}`;
  const status = info.response?.status;
  return textResult(text, {
    url: info.url,
    title: info.title,
    ...(status === undefined || status === 0 ? {} : { status, ok: status < 400 }),
  });
}

/**
 * The headline of a navigation's result: what happened, unless the page held it with a
 * beforeunload dialog, which leaves the tab where it was until the dialog is answered (#27).
 */
function headline(tab: TabHandle, done: string, where: string): string {
  if (tab.state.dialog?.type !== 'beforeunload') return done;
  return `Not navigated yet: the page asks before leaving (a beforeunload dialog). Accept it with browser_handle_dialog to go ${where}, or dismiss it to stay.`;
}

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
  const info = await navigateTab(tab, url, ctx.settings?.navigationTimeoutMs, ctx.signal);
  const note = /^data:/i.test(url)
    ? "\nThe data: URL's document was written into about:blank (an extension cannot open data: URLs), so the page URL is about:blank."
    : '';
  return loadedResult(
    headline(tab, `Navigated to ${oneLine(url, 200)}${note}`, `to ${oneLine(url, 200)}`),
    info,
  );
};

export const navigateBack: Handler<'browser_navigate_back'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await goInHistory(tab, -1, ctx.settings?.navigationTimeoutMs, ctx.signal);
  return loadedResult(headline(tab, 'Went back.', 'back'), info);
};

export const navigateForward: Handler<'browser_navigate_forward'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await goInHistory(tab, 1, ctx.settings?.navigationTimeoutMs, ctx.signal);
  return loadedResult(headline(tab, 'Went forward.', 'forward'), info);
};

export const reload: Handler<'browser_reload'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  forgetLastLook(tab);
  const info = await reloadTab(
    tab,
    args.ignoreCache === true,
    ctx.settings?.navigationTimeoutMs,
    ctx.signal,
  );
  return loadedResult(headline(tab, 'Reloaded.', 'on with the reload'), info);
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
