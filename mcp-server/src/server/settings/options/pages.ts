/** What the session's tabs get in both modes: viewport, device emulation, init scripts, timeouts. */
import { z } from 'zod';
import { setting } from '../setting.js';
import { bool, positiveInt, text, textList } from './values.js';

export const pageSettings = {
  viewport: setting({
    key: 'viewport',
    flag: 'viewport',
    env: 'BROWSER_AGENT_VIEWPORT',
    kind: 'size',
    schema: z.strictObject(
      { width: positiveInt(), height: positiveInt() },
      { error: 'expected an object' },
    ),
    // Only a launched browser gets it unasked: in the user's own Chrome the window is theirs.
    default: { width: 1280, height: 720 },
    defaultText: "1280x720 in launch mode; in your own Chrome the window's size",
    arg: '<WxH>',
    help: "Viewport of the agent's tabs.",
    theirs: [
      { flag: '--viewport-size', note: '`1280x720`' },
      { key: 'browser.contextOptions.viewport', note: '`{ "width": 1280, "height": 720 }`' },
    ],
  }),
  device: setting({
    key: 'browser.device',
    flag: 'device',
    env: 'BROWSER_AGENT_DEVICE',
    kind: 'string',
    schema: text(),
    arg: '<name>',
    help: 'Emulate a device: "iPhone 15", "Pixel 7", "iPad Mini", … (viewport, pixel ratio, touch, user agent); --viewport beats its size.',
    theirs: [
      {
        flag: '--device',
        note: 'a table of common phones and tablets (`--device` with a wrong name lists them)',
      },
    ],
  }),
  mobile: setting({
    key: 'browser.mobile',
    flag: 'mobile',
    env: 'BROWSER_AGENT_MOBILE',
    kind: 'bool',
    schema: bool(),
    default: false,
    help: 'Mobile layout and touch on the viewport.',
    theirs: [{ flag: '--mobile' }],
  }),
  initScript: setting({
    key: 'browser.initScript',
    flag: 'init-script',
    env: 'BROWSER_AGENT_INIT_SCRIPT',
    kind: 'list',
    schema: textList('JavaScript file paths', 20),
    arg: '<files>',
    help: 'JavaScript files run in every page before its own scripts.',
    theirs: [
      {
        flag: '--init-script',
        note: "files run in every document of the session's tabs before the page's own scripts",
      },
    ],
  }),
  actionTimeoutMs: setting({
    key: 'timeouts.actionMs',
    flag: 'timeout-action',
    env: 'BROWSER_AGENT_ACTION_TIMEOUT_MS',
    kind: 'int',
    schema: positiveInt('a positive integer (milliseconds)'),
    default: 5_000,
    arg: '<ms>',
    help: 'Input actions (click, type, hover, drag, key press, scroll, form fill) give up after this long.',
    theirs: [{ flag: '--timeout-action' }, { key: 'timeouts.action' }],
  }),
  navigationTimeoutMs: setting({
    key: 'timeouts.navigationMs',
    flag: 'timeout-navigation',
    env: 'BROWSER_AGENT_NAVIGATION_TIMEOUT_MS',
    kind: 'int',
    schema: positiveInt('a positive integer (milliseconds)'),
    default: 30_000,
    arg: '<ms>',
    help: 'Navigations (navigate, back, forward, reload, new tab) give up after this long.',
    theirs: [{ flag: '--timeout-navigation' }, { key: 'timeouts.navigation' }],
  }),
};
