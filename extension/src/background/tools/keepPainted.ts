import type { AttachHook } from '../handlerContext';

/**
 * Keeps an agent's tab rendering while it is not the tab the user sees. Chrome paints only the
 * active tab of each window: in a background tab Page.captureScreenshot waits for a frame that
 * never comes, timers are throttled to once a second and requestAnimationFrame never runs.
 * With focus emulation on, Chrome keeps rendering the tab: the page sees itself visible and
 * focused, and screenshots work, without activating the tab, raising a window or taking the
 * user's focus (seen on Chromium 156 headless: a hidden tab's screenshot went from a hang to
 * 55 ms). Playwright turns it on for its pages too. Detaching the debugger ends it.
 */
export const keepPainted: AttachHook = async ({ cdp }) => {
  // Pages Chrome will not emulate (e.g. an error page mid-swap) still work, only slower when hidden.
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
};
