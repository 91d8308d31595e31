/**
 * The handler registry: every area's handlers spread into one record, and the per-tab recorders
 * the worker starts on each debugger attach.
 */
import { sideEffects, transactionToolHandlers } from '../transactions';
import type { ToolName } from '@browser-agent/protocol';
import type { AttachHook, Handler, HandlerRegistry } from '../handlerContext';
import { keepRunning } from '../loading/keepRunning';
import { trackChildFrames } from '../recorders/childFrames';
import { recordClickListeners } from '../recorders/clickListeners';
import { modalStateSection, trackDialogs } from '../recorders/dialogs';
import { recordNetwork } from '../recorders/networkLog';
import { consoleHandlers } from './console';
import { contentHandlers } from './content';
import { dialogsHandlers } from './dialogs';
import { evaluateHandlers } from './evaluate';
import { findHandlers } from './find';
import { formsHandlers } from './forms';
import { inputHandlers } from './input';
import { navigationHandlers } from './navigation';
import { networkHandlers } from './network';
import { snapshotHandlers } from './snapshot';
import { storageHandlers } from './storage';
import { tabsHandlers } from './tabs';
import { waitForHandlers } from './waitFor';

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
    return { content: [...result.content, { type: 'text', text: section }] };
  };
}

/** Wraps each handler once; browser_close leaves no tab to report a dialog for. */
function withModalStates(registry: HandlerRegistry): HandlerRegistry {
  const wrapped: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(registry) as [ToolName, Handler<ToolName>][]) {
    wrapped[name] = name === 'browser_close' ? handler : withModalState(handler);
  }
  return wrapped as HandlerRegistry;
}

/** One handler per tool contract; a contract without a handler (or the reverse) fails to compile. */
export const handlers: HandlerRegistry = withModalStates({
  ...navigationHandlers,
  ...snapshotHandlers,
  ...findHandlers,
  ...inputHandlers,
  ...formsHandlers,
  ...dialogsHandlers,
  ...contentHandlers,
  ...tabsHandlers,
  ...evaluateHandlers,
  ...consoleHandlers,
  ...waitForHandlers,
  ...networkHandlers,
  ...storageHandlers,
  ...transactionToolHandlers,
});

/** Per-tab recorders the worker runs on every debugger attach. */
export const attachHooks: readonly AttachHook[] = [
  keepRunning,
  recordClickListeners,
  trackDialogs,
  recordNetwork,
  trackChildFrames,
  (tab) => sideEffects.watch(tab.tabId, tab.cdp),
];
