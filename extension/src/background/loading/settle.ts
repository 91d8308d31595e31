/**
 * Waiting for the page to settle after an action. A static page costs one round trip; only a
 * navigation the action started is waited for, and every wait is bounded.
 */
import type { CdpClient } from '../cdp';
import type { NavigationWatch } from './navigationWatch';
import { within } from '../common/timing';

/**
 * A navigation the action started normally shows before the quiet check returns; if the check
 * itself was cut short (the context was destroyed), one may still be on its way for this long.
 */
const NAVIGATION_GRACE_MS = 50;
const SETTLE_LOAD_TIMEOUT_MS = 10_000;
/** Once the DOM changed, it counts as settled after this long without mutations… */
const DOM_QUIET_MS = 50;
/** …or after this long in any case (animations and tickers never go quiet). */
const DOM_QUIET_CAP_MS = 1_000;
// Background tabs throttle page timers, so the cap is also enforced from this side.
const DOM_QUIET_OUTER_CAP_MS = DOM_QUIET_CAP_MS + 200;

/**
 * Resolves once the DOM has been quiet: at the first look (after firstLookMs, 0 = the next task,
 * after whatever the action queued for right away) when nothing changed by then, else after
 * DOM_QUIET_MS without mutations.
 */
function domQuietScript(firstLookMs: number): string {
  return `new Promise((resolve) => {
  let quietTimer;
  const done = () => { observer.disconnect(); clearTimeout(quietTimer); clearTimeout(capTimer); resolve(true); };
  const observer = new MutationObserver(() => { clearTimeout(quietTimer); quietTimer = setTimeout(done, ${DOM_QUIET_MS}); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  setTimeout(() => { if (quietTimer === undefined) done(); }, ${firstLookMs});
  const capTimer = setTimeout(done, ${DOM_QUIET_CAP_MS});
})`;
}

export interface SettleOutcome {
  /** The main frame committed a new document or URL. */
  navigated: boolean;
  /** That navigation loaded a new document, so the last snapshot no longer applies. */
  newDocument: boolean;
  /** A navigation started but did not finish loading in time. */
  stillLoading: boolean;
}

/**
 * Waits for a quiet DOM; false when the check could not finish because a navigation destroyed
 * the context it ran in (that ends the window, not the action).
 */
export async function waitForDomQuiet(cdp: CdpClient, firstLookMs = 0): Promise<boolean> {
  const quiet = cdp
    .send('Runtime.evaluate', {
      expression: domQuietScript(firstLookMs),
      awaitPromise: true,
      returnByValue: true,
    })
    .then(
      () => true,
      () => false,
    );
  return (await within(quiet, DOM_QUIET_OUTER_CAP_MS)) ?? true;
}

/** After the requests an action started: their handlers may still be about to update the DOM. */
export function waitForDomQuietAfterRequests(cdp: CdpClient): Promise<boolean> {
  return waitForDomQuiet(cdp, DOM_QUIET_MS);
}

/**
 * Waits for what the action started, then disposes the watch. A static page pays one round trip:
 * the quiet check runs a page task after the action, and CDP delivers the page's navigation
 * events before that check's answer, so by then a navigation the action started has shown.
 */
export async function settle(cdp: CdpClient, watch: NavigationWatch): Promise<SettleOutcome> {
  try {
    const checked = await waitForDomQuiet(cdp);
    const started = checked ? watch.started : await watch.waitForStart(NAVIGATION_GRACE_MS);
    if (!started)
      return { navigated: watch.navigated, newDocument: watch.newDocument, stillLoading: false };
    const loaded = await watch.waitForLoad(SETTLE_LOAD_TIMEOUT_MS);
    if (loaded) await waitForDomQuiet(cdp);
    return { navigated: watch.navigated, newDocument: watch.newDocument, stillLoading: !loaded };
  } finally {
    watch.dispose();
  }
}
