/**
 * Waiting for the page to settle after an action. A static page costs one round trip; only a
 * navigation the action started is waited for, and every wait is bounded.
 */
import type { CdpClient } from '../cdp';
import type { NavigationWatch } from './navigationWatch';
import { delay, orAbort, within } from '../common/timing';
import { LATE_TIMERS_IDLE, LATE_TIMERS_IDLE_AFTER_INPUT } from './lateTimers';
import { OVERLAY_HOST_ID } from '../../shared/messages';

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
// Background tabs throttle page timers, so the cap is also enforced from this side (the late
// timers' own cap included).
const DOM_QUIET_OUTER_CAP_MS = DOM_QUIET_CAP_MS + 500;

/**
 * Resolves once the DOM has been quiet: at the first look (`firstLook`, below: 0 = the next task,
 * after whatever the action queued for right away) when nothing changed by then, else after
 * DOM_QUIET_MS without mutations (the overlay's own host coming or going is not one). It first
 * lets the short timers an input action set fire (lateTimers.ts): a navigation one of them starts
 * is then seen before the check answers. Sent along with its input (`afterInput`), it first waits
 * for that input's gate (lateTimers.ts).
 */
function domQuietScript(firstLook: FirstLook, quiet: QuietOptions = {}): string {
  const { quietEvent } = quiet;
  const firstLookCode =
    firstLook === 'frame'
      ? // The page's own requestAnimationFrame may be replaced or never fire (a background tab):
        // the look comes at the latest FRAME_LOOK_CAP_MS after the check starts.
        `requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(look, 0))); setTimeout(look, ${FRAME_LOOK_CAP_MS});`
      : `setTimeout(look, ${firstLook});`;
  return `${quiet.afterInput === true ? LATE_TIMERS_IDLE_AFTER_INPUT : LATE_TIMERS_IDLE}.then((downloadAsked) => new Promise((resolve) => {
  let quietTimer;
  const done = () => { observer.disconnect(); clearTimeout(quietTimer); clearTimeout(capTimer); ${quietEvent === undefined ? '' : `document.dispatchEvent(new Event(${JSON.stringify(quietEvent)})); `}resolve(downloadAsked); };
  const ours = (n) => n.id === ${JSON.stringify(OVERLAY_HOST_ID)};
  const overlayOnly = (r) => r.type === 'childList' && [...r.addedNodes, ...r.removedNodes].every(ours);
  const observer = new MutationObserver((records) => {
    if (records.every(overlayOnly)) return;
    clearTimeout(quietTimer); quietTimer = setTimeout(done, ${DOM_QUIET_MS});
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const look = () => { if (quietTimer === undefined) done(); };
  ${firstLookCode}
  const capTimer = setTimeout(done, ${DOM_QUIET_CAP_MS});
}))`;
}

/**
 * When the check first looks: after this many ms (0 = the next task), or after the page's next
 * two animation frames and the task after them ('frame'): routers that set the URL in place
 * render there (Mithril resolves a route in a timer and redraws in a frame, through references
 * it kept at load, which lateTimers.ts cannot see), so a look at the next task could see the old
 * view (the Mithril TodoMVC e2e test, 2 of 8 under CPU load).
 */
type FirstLook = number | 'frame';

export interface QuietOptions {
  /** Dispatched on the document when the DOM went quiet (acting/earlyLook.ts). */
  quietEvent?: string | undefined;
  /** Sent along with the action's input: wait for its gate first (lateTimers.ts). */
  afterInput?: boolean;
}
/** The frames' look comes at the latest this long after the check started. */
const FRAME_LOOK_CAP_MS = 100;

export interface SettleOutcome {
  /** The main frame committed a new document or URL. */
  navigated: boolean;
  /** That navigation loaded a new document, so the last snapshot no longer applies. */
  newDocument: boolean;
  /** A navigation started but did not finish loading in time. */
  stillLoading: boolean;
  /** The action clicked an `<a download>` (lateTimers.ts): its download may be on its way. */
  downloadAsked: boolean;
}

/**
 * The quiet check: `finished` is false when it could not finish because a navigation destroyed
 * the context it ran in (that ends the window, not the action).
 */
async function domQuietCheck(
  cdp: CdpClient,
  firstLook: FirstLook,
  options?: QuietOptions,
): Promise<{ finished: boolean; downloadAsked: boolean }> {
  const quiet = cdp
    .send('Runtime.evaluate', {
      expression: domQuietScript(firstLook, options),
      awaitPromise: true,
      returnByValue: true,
    })
    .then(
      (r) => ({ finished: true, downloadAsked: r.result.value === true }),
      () => ({ finished: false, downloadAsked: false }),
    );
  return (await within(quiet, DOM_QUIET_OUTER_CAP_MS)) ?? { finished: true, downloadAsked: false };
}

/** Waits for a quiet DOM; false when a navigation destroyed the context the check ran in. */
export async function waitForDomQuiet(cdp: CdpClient, firstLook: FirstLook = 0): Promise<boolean> {
  return (await domQuietCheck(cdp, firstLook)).finished;
}

/** After the requests an action started: their handlers may still be about to update the DOM. */
export function waitForDomQuietAfterRequests(cdp: CdpClient): Promise<boolean> {
  return waitForDomQuiet(cdp, DOM_QUIET_MS);
}

/**
 * Waits for what the action started, then disposes the watch. A static page pays one round trip:
 * the quiet check runs a page task after the action (and after the short timers it set, when
 * armed: lateTimers.ts), and CDP delivers the page's navigation events before that check's
 * answer, so by then a navigation the action started has shown. No blind wait follows. When the
 * DOM is quiet the check dispatches `quietEvent` on the document (acting/earlyLook.ts).
 */
export async function settle(
  cdp: CdpClient,
  watch: NavigationWatch,
  interrupted: Promise<unknown> = new Promise(() => undefined),
  signal?: AbortSignal,
  quiet?: QuietOptions,
): Promise<SettleOutcome> {
  try {
    // A dialog (an alert from a timer the action set) blocks the page: stop waiting, report it.
    const stop = interrupted.then(() => 'stop' as const);
    const checked = await orAbort(Promise.race([domQuietCheck(cdp, 0, quiet), stop]), signal);
    const downloadAsked = checked !== 'stop' && checked.downloadAsked;
    const started =
      watch.started ||
      (checked !== 'stop' &&
        !checked.finished &&
        (await orAbort(
          Promise.race([watch.waitForStart(NAVIGATION_GRACE_MS), stop.then(() => false)]),
          signal,
        )));
    const { navigated, newDocument } = watch;
    if (!started) return { navigated, newDocument, stillLoading: false, downloadAsked };
    const usable = await waitUntilUsable(cdp, watch, Date.now() + SETTLE_LOAD_TIMEOUT_MS, signal);
    return {
      navigated: watch.navigated,
      newDocument: watch.newDocument,
      stillLoading: !usable,
      downloadAsked,
    };
  } finally {
    watch.dispose();
  }
}

/** After DOMContentLoaded, the settle ends at the latest this much later. */
export const USABLE_SETTLE_CAP_MS = 1_500;
/**
 * After a script's own request answered, its handler often renders on a short timer (an app's
 * first data, then `setTimeout(render, 50)`): the page is looked at only this long after the last
 * such answer. Pages that ask for nothing from script (most documents) never pay it.
 */
const AFTER_SCRIPT_ANSWER_MS = 100;
const POLL_MS = 10;

/**
 * Waits for DOMContentLoaded (false if it does not come before deadline), then until the page's
 * scripts are done with their requests and the DOM is quiet, or USABLE_SETTLE_CAP_MS have
 * passed, or the deadline. Driven by events (#26): it was 100 ms without a request start and
 * 50 ms past DOMContentLoaded, which every navigate, back and link click paid; now only a page
 * whose scripts asked for something waits AFTER_SCRIPT_ANSWER_MS after their last answer.
 *
 * The look (the DOM-quiet check) runs a page task after everything already queued: the
 * handlers of DOMContentLoaded, a script whose request just answered, their zero-delay timers.
 * CDP delivers the requests those started before the look's answer, so a request that started
 * or answered while the page was looked at means it is still at work: wait and look again.
 * Only scripts' own requests are waited for (a module loader's next module, an app's first
 * data); the parser's images and async tags are not, and what is still loading is named in the
 * result (usable.ts).
 */
export async function waitUntilUsable(
  cdp: CdpClient,
  watch: NavigationWatch,
  deadline: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const ready = watch.waitForDomContent(Math.max(0, deadline - Date.now()));
  if (!(await orAbort(ready, signal))) return false;
  const capAt = Math.min(deadline, Date.now() + USABLE_SETTLE_CAP_MS);
  const busy = (): boolean =>
    watch.scriptRequestsSince(0) > 0 ||
    (watch.lastScriptAnswerAt > 0 &&
      Date.now() - watch.lastScriptAnswerAt < AFTER_SCRIPT_ANSWER_MS);
  for (;;) {
    while (Date.now() < capAt && busy()) await delay(POLL_MS, signal);
    if (Date.now() >= capAt) return true;
    const lookedAt = Date.now();
    // The URL changed in place (pushState, a hash): the app renders its new route in a task or a
    // frame after the change, so the look comes after the page's next two frames (~33 ms, paid
    // only by such navigations; it was a second look after this one, a round trip more).
    const inPlace = watch.navigated && !watch.newDocument;
    await orAbort(waitForDomQuiet(cdp, inPlace ? 'frame' : 0), signal);
    if (watch.lastRequestAt < lookedAt || Date.now() >= capAt) return true;
  }
}
