import type { AttachHook } from '../handlerContext';
import type { HandlerRegistry } from '../handlerContext';
import { consoleMessages } from './console';
import { evaluate } from './evaluate';
import { click, type } from './input';
import { navigate, navigateBack } from './navigation';
import { takeScreenshot } from './screenshot';
import { snapshot } from './snapshot';
import { tabs } from './tabs';
import { waitFor } from './waitFor';

/** One handler per tool contract; a contract without a handler (or the reverse) fails to compile. */
export const handlers = {
  browser_navigate: navigate,
  browser_navigate_back: navigateBack,
  browser_snapshot: snapshot,
  browser_click: click,
  browser_type: type,
  browser_take_screenshot: takeScreenshot,
  browser_tabs: tabs,
  browser_evaluate: evaluate,
  browser_console_messages: consoleMessages,
  browser_wait_for: waitFor,
} satisfies HandlerRegistry;

/** Per-tab recorders the worker runs on every debugger attach (none needed yet). */
export const attachHooks: readonly AttachHook[] = [];
