import { sideEffects, transactionToolHandlers } from '../transactions';
import type { ToolName } from '@browser-agent/protocol';
import type { AttachHook, Handler, HandlerRegistry } from '../handlerContext';
import { trackChildFrames } from './childFrames';
import { consoleMessages } from './console';
import { handleDialog, modalStateSection, trackDialogs } from './dialogs';
import { evaluate } from './evaluate';
import { find } from './find';
import { fileUpload, fillForm, selectOption } from './forms';
import { click, hover, pressKey, type } from './input';
import { close, navigate, navigateBack, navigateForward, reload, resize } from './navigation';
import { networkRequest, networkRequests } from './network';
import { recordNetwork } from './networkLog';
import { keepRunning } from './keepRunning';
import { recordClickListeners } from './clickListeners';
import { getHtml, getText } from './pageHtml';
import { drag, scroll } from './pointer';
import { takeScreenshot } from './screenshot';
import { snapshot } from './snapshot';
import { storage } from './storage';
import { tabs } from './tabs';
import { waitFor } from './waitFor';

/**
 * Every result, success or error, ends with the open dialog of the current tab, so a model
 * learns of a dialog from whatever it called and is reminded until it handles it.
 */
function withModalState<N extends ToolName>(handler: Handler<N>): Handler<N> {
  return async (args, ctx) => {
    const modal = async (): Promise<string | undefined> =>
      ctx.currentTab().then(modalStateSection, () => undefined);
    const result = await handler(args, ctx);
    const section = await modal();
    if (section === undefined) return result;
    return { ...result, content: [...result.content, { type: 'text', text: section }] };
  };
}

/** One handler per tool contract; a contract without a handler (or the reverse) fails to compile. */
export const handlers = {
  browser_navigate: withModalState(navigate),
  browser_navigate_back: withModalState(navigateBack),
  browser_navigate_forward: withModalState(navigateForward),
  browser_reload: withModalState(reload),
  browser_snapshot: withModalState(snapshot),
  browser_find: withModalState(find),
  browser_click: withModalState(click),
  browser_type: withModalState(type),
  browser_fill_form: withModalState(fillForm),
  browser_select_option: withModalState(selectOption),
  browser_hover: withModalState(hover),
  browser_drag: withModalState(drag),
  browser_press_key: withModalState(pressKey),
  browser_scroll: withModalState(scroll),
  browser_file_upload: withModalState(fileUpload),
  browser_handle_dialog: withModalState(handleDialog),
  browser_get_text: withModalState(getText),
  browser_take_screenshot: withModalState(takeScreenshot),
  browser_tabs: withModalState(tabs),
  browser_resize: withModalState(resize),
  browser_close: browserClose(),
  browser_evaluate: withModalState(evaluate),
  browser_console_messages: withModalState(consoleMessages),
  browser_wait_for: withModalState(waitFor),
  browser_get_html: withModalState(getHtml),
  browser_network_requests: withModalState(networkRequests),
  browser_network_request: withModalState(networkRequest),
  browser_storage: withModalState(storage),
  ...transactionToolHandlers,
} satisfies HandlerRegistry;

/** browser_close leaves no tab to report a dialog for. */
function browserClose(): Handler<'browser_close'> {
  return close;
}

/** Per-tab recorders the worker runs on every debugger attach. */
export const attachHooks: readonly AttachHook[] = [
  keepRunning,
  recordClickListeners,
  trackDialogs,
  recordNetwork,
  trackChildFrames,
  (tab) => sideEffects.watch(tab.tabId, tab.cdp),
];
