import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import type { AttachHook } from '../tabStates';

/** The screencast only keeps the tab drawn; its frames are as small and rare as Chrome allows. */
const KEEP_DRAWN: Protocol.Page.StartScreencastRequest = {
  format: 'jpeg',
  quality: 1,
  maxWidth: 8,
  maxHeight: 8,
  everyNthFrame: 1000,
};

/**
 * Lets an agent's tab run at full speed while it is not the tab the user sees. Chrome draws only
 * the active tab of each window, and in any other tab (seen on Chromium 156, headless):
 * Page.captureScreenshot waits for a frame that never comes, a mouse move waits ~1 s for a frame
 * before Chrome gives up, requestAnimationFrame never runs, timers are throttled to about once a
 * second, and the page is told it is hidden and unfocused.
 *
 * A screencast makes Chrome draw the tab as if shown, for as long as it runs (its frames are
 * never acknowledged, so after the first ones Chrome sends none); focus emulation makes the page
 * see itself visible and focused. Neither activates the tab, raises a window or takes the user's
 * focus; the cost is that a background agent tab renders like a shown one. Both end when the
 * debugger detaches. Playwright enables focus emulation for its pages too.
 */
export const keepRunning: AttachHook = async ({ cdp }) => {
  // A page that refuses (e.g. an error page mid-swap) still works, only slower while hidden;
  // screenshots ask again.
  await Promise.all([
    cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined),
    keepDrawn(cdp),
  ]);
};

/** Starts (or restarts) the screencast that keeps the tab drawn. */
export async function keepDrawn(cdp: CdpClient): Promise<void> {
  await cdp.send('Page.startScreencast', KEEP_DRAWN).catch(() => undefined);
}
