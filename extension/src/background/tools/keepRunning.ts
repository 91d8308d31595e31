import type { AttachHook } from '../handlerContext';

/**
 * Lets an agent's tab run at full speed while it is not the tab the user sees. In a background
 * tab the page is told it is hidden, its timers are throttled to about once a second and focus
 * events never come, so waits and pages that check focus crawl. With focus emulation on, the page
 * sees itself visible and focused (seen on Chromium 156: a 50 ms timer in a background tab took
 * 50 ms instead of ~600), without activating the tab or taking the user's focus. Playwright turns
 * it on for its pages too. Chrome still draws only shown tabs; screenshot.ts deals with that.
 * Detaching the debugger ends it.
 */
export const keepRunning: AttachHook = async ({ cdp }) => {
  // A page that refuses (e.g. an error page mid-swap) still works, only slower when hidden.
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
};
