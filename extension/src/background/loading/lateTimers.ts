/**
 * The timers an input action sets, so its settle can wait for a navigation a handler starts a
 * moment later (`onclick="setTimeout(() => location.href = …, 100)"`) by the event itself
 * instead of a blind wait after every action (#26: 150 ms on each click and type).
 *
 * Before the action, the page's main world gets a setTimeout that notes short timers (at most
 * LATE_TIMER_MS) while the action runs; the settle's quiet check waits until they have fired,
 * then puts the page's own setTimeout and clearTimeout back. A navigation such a timer starts is
 * on the wire before the check answers. Timers set through a reference the page kept from
 * before, and timers those timers set, are not waited for.
 *
 * It also notes whether the action asked for a download (a click, real or scripted, on an
 * `<a download>` that no handler cancelled): Chrome sends Page.downloadWillBegin some
 * milliseconds after the click, with no event in between, so the settle waits for it only then.
 */
import type { CdpClient } from '../cdp';

/** Timers up to this long are the action's follow-up (a debounce, "navigate after the ripple"). */
export const LATE_TIMER_MS = 150;
/** A background tab's timers are throttled to one a second: the wait ends this long after it starts. */
const LATE_TIMERS_CAP_MS = 250;
/**
 * A check sent with the input waits at most this long for it (afterInput); the worker opens the
 * gate as soon as the input was taken, so only a page that stops every input event meets it.
 */
const INPUT_GATE_CAP_MS = 1_000;
/** A window property, not enumerable; absent in a new document, so a navigation disarms it. */
const KEY = '__browserAgentLateTimers';

const ARM_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, ${JSON.stringify(KEY)})) return window[${JSON.stringify(KEY)}].expectInput();
  const nativeSet = window.setTimeout, nativeClear = window.clearTimeout;
  const pending = new Set();
  // The input gate (afterInput): opens a task after the first input event since the arming, once
  // that event's dispatch (the page's own listeners, the timers they set) is done; or when the
  // worker says the input was taken (inputDone), or at the disarming, or after the cap.
  let gate;
  const expectInput = () => {
    let open;
    const opened = new Promise((resolve) => { open = resolve; });
    gate = { opened, open };
    return true;
  };
  // Only input the browser delivered: an event the page dispatches itself does not open it.
  const onInput = (e) => { if (!e.isTrusted) return; const g = gate; nativeSet.call(window, () => g.open(), 0); };
  const afterInput = () => { const g = gate; const cap = nativeSet.call(window, () => g.open(), ${INPUT_GATE_CAP_MS}); return g.opened.then(() => nativeClear.call(window, cap)); };
  let wake, tracking = true, downloadAsked = false;
  const isDownloadLink = (n) => (n instanceof HTMLAnchorElement || n instanceof HTMLAreaElement) &&
    n.hasAttribute('download') && n.href !== '';
  // Bubbling to window comes after the page's own handlers: a cancelled click asks for nothing.
  const onClick = (e) => { if (!e.defaultPrevented && e.composedPath().some(isDownloadLink)) downloadAsked = true; };
  // A link made in script and never attached (a blob's "Save") is clicked without bubbling here.
  const nativeClick = HTMLElement.prototype.click;
  const hookedClick = function () {
    if (!this.isConnected && isDownloadLink(this)) downloadAsked = true;
    return nativeClick.call(this);
  };
  const check = () => { if (pending.size === 0 && wake) wake(); };
  const hookedSet = function (handler, ms, ...rest) {
    if (!tracking || typeof handler !== 'function' || !((Number(ms) || 0) <= ${LATE_TIMER_MS}))
      return nativeSet.call(window, handler, ms, ...rest);
    const id = nativeSet.call(window, function (...args) {
      try { return handler.apply(this, args); } finally { pending.delete(id); check(); }
    }, ms, ...rest);
    pending.add(id);
    return id;
  };
  const hookedClear = function (id) { pending.delete(id); check(); return nativeClear.call(window, id); };
  const restore = () => {
    if (window.setTimeout === hookedSet) window.setTimeout = nativeSet;
    if (window.clearTimeout === hookedClear) window.clearTimeout = nativeClear;
    if (HTMLElement.prototype.click === hookedClick) HTMLElement.prototype.click = nativeClick;
    window.removeEventListener('click', onClick);
    window.removeEventListener('beforeinput', onInput, true);
    window.removeEventListener('input', onInput, true);
    gate.open();
    delete window[${JSON.stringify(KEY)}];
  };
  // Only the action's own timers: a ticker that re-arms itself would otherwise never be done.
  const idle = () => new Promise((resolve) => {
    tracking = false;
    const cap = nativeSet.call(window, () => resolve(), ${LATE_TIMERS_CAP_MS});
    wake = () => { nativeClear.call(window, cap); resolve(); };
    check();
  }).finally(restore).then(() => downloadAsked);
  const inputDone = () => gate.open();
  Object.defineProperty(window, ${JSON.stringify(KEY)}, { value: { idle, restore, expectInput, afterInput, inputDone }, configurable: true });
  window.setTimeout = hookedSet;
  window.clearTimeout = hookedClear;
  HTMLElement.prototype.click = hookedClick;
  window.addEventListener('click', onClick);
  window.addEventListener('beforeinput', onInput, true);
  window.addEventListener('input', onInput, true);
  return expectInput();
})()`;

/**
 * A page-side expression that waits for the action's short timers to fire (or the cap), then
 * disarms; it resolves to whether the action asked for a download, at once (false) where
 * nothing was armed.
 */
export const LATE_TIMERS_IDLE = `(window[${JSON.stringify(KEY)}] ? window[${JSON.stringify(KEY)}].idle() : Promise.resolve(false))`;

/**
 * The same, for a check sent along with its input instead of after the input was taken (#26: a
 * round trip less on a type): it first waits for the input gate, so it never looks at the page
 * before the input landed and the page's handlers ran.
 */
export const LATE_TIMERS_IDLE_AFTER_INPUT = `(window[${JSON.stringify(KEY)}] ? window[${JSON.stringify(KEY)}].afterInput().then(() => ${LATE_TIMERS_IDLE}) : Promise.resolve(false))`;

/**
 * Arms the watch before an input action; a page that cannot be reached just is not watched. True
 * when the page is armed, input gate included (only then may a check go out with the input).
 */
export async function armLateTimers(cdp: CdpClient): Promise<boolean> {
  const reply = await cdp
    .send('Runtime.evaluate', { expression: ARM_SCRIPT, returnByValue: true })
    .catch(() => undefined);
  return reply?.exceptionDetails === undefined && reply?.result.value === true;
}

/** Opens the input gate once the browser took the input (a page that stopped every event). */
export function inputTaken(cdp: CdpClient): void {
  tellArmed(cdp, 'inputDone');
}

/** Puts the page's timers back when the settle's check will not run (a dialog, a timeout). */
export function disarmLateTimers(cdp: CdpClient): void {
  tellArmed(cdp, 'restore');
}

/** Calls one of the armed page's functions, unanswered; an unarmed or gone page ignores it. */
function tellArmed(cdp: CdpClient, call: 'inputDone' | 'restore'): void {
  void cdp
    .send('Runtime.evaluate', { expression: `window[${JSON.stringify(KEY)}]?.${call}()` })
    .catch(() => undefined);
}
