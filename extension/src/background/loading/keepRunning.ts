import type { Protocol } from 'devtools-protocol';
import type { AttachHook, TabHandle } from '../tabStates';

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
export const keepRunning: AttachHook = async (tab) => {
  // A page that refuses (e.g. an error page mid-swap) still works, only slower while hidden;
  // screenshots ask again.
  await Promise.all([
    tab.cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined),
    startScreencast(tab),
  ]);
};

/**
 * Makes sure the screencast that keeps the tab drawn runs. The attach hook starts it on every
 * attach (it ends with the debugger), so this starts it only where that failed: starting it
 * again while it ran made Chrome's next capture come back white now and then (3 of 8 element
 * screenshots on a busy 2-core machine; none in 32 once it was started only once).
 */
export async function keepDrawn(tab: TabHandle): Promise<void> {
  if (!tab.state.drawn) await startScreencast(tab);
}

async function startScreencast(tab: TabHandle): Promise<void> {
  tab.state.drawn = await tab.cdp.send('Page.startScreencast', KEEP_DRAWN).then(
    () => true,
    () => false,
  );
}
