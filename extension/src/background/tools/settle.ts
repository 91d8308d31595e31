/**
 * Waiting for the page to settle after an action. A static page costs one short window; only a
 * navigation the action started is waited for, and every wait is bounded.
 */
import type { CdpClient } from '../cdp';
import type { NavigationWatch } from './navigationWatch';
import { within } from './timing';

/** How long after an action a navigation may still start and count as caused by it. */
const NAVIGATION_GRACE_MS = 50;
const SETTLE_LOAD_TIMEOUT_MS = 10_000;
/** The DOM counts as settled after this long without mutations… */
const DOM_QUIET_MS = 50;
/** …or after this long in any case (animations and tickers never go quiet). */
const DOM_QUIET_CAP_MS = 1_000;
// Background tabs throttle page timers, so the cap is also enforced from this side.
const DOM_QUIET_OUTER_CAP_MS = DOM_QUIET_CAP_MS + 200;

const DOM_QUIET_SCRIPT = `new Promise((resolve) => {
  let quietTimer;
  const done = () => { observer.disconnect(); clearTimeout(quietTimer); clearTimeout(capTimer); resolve(true); };
  const observer = new MutationObserver(() => { clearTimeout(quietTimer); quietTimer = setTimeout(done, ${DOM_QUIET_MS}); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  quietTimer = setTimeout(done, ${DOM_QUIET_MS});
  const capTimer = setTimeout(done, ${DOM_QUIET_CAP_MS});
})`;

export interface SettleOutcome {
  /** The main frame committed a new document or URL. */
  navigated: boolean;
  /** That navigation loaded a new document, so the last snapshot no longer applies. */
  newDocument: boolean;
  /** A navigation started but did not finish loading in time. */
  stillLoading: boolean;
}

export async function waitForDomQuiet(cdp: CdpClient): Promise<void> {
  const quiet = cdp
    .send('Runtime.evaluate', {
      expression: DOM_QUIET_SCRIPT,
      awaitPromise: true,
      returnByValue: true,
    })
    // A navigation destroys the context the script runs in; that ends this window, not the action.
    .catch(() => undefined);
  await within(quiet, DOM_QUIET_OUTER_CAP_MS);
}

/** Waits for what the action started, then disposes the watch. */
export async function settle(cdp: CdpClient, watch: NavigationWatch): Promise<SettleOutcome> {
  try {
    // The quiet window and the navigation grace run side by side so a static page pays once.
    const [started] = await Promise.all([
      watch.waitForStart(NAVIGATION_GRACE_MS),
      waitForDomQuiet(cdp),
    ]);
    if (!started)
      return { navigated: watch.navigated, newDocument: watch.newDocument, stillLoading: false };
    const loaded = await watch.waitForLoad(SETTLE_LOAD_TIMEOUT_MS);
    if (loaded) await waitForDomQuiet(cdp);
    return { navigated: watch.navigated, newDocument: watch.newDocument, stillLoading: !loaded };
  } finally {
    watch.dispose();
  }
}
