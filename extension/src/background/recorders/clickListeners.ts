/**
 * Which elements a page gave click listeners with addEventListener, for `[cursor=pointer]`.
 * The page model's isolated world cannot see listeners, and DOMDebugger.getEventListeners per
 * element hung the big bench page's tab. So, in the agent's tabs only (never the user's own),
 * a main-world script added with Page.addScriptToEvaluateOnNewDocument records them as the page
 * adds and removes them, and answers the page model through synchronous DOM events: the model
 * fires a request on the document, and the hook fires an item event on each element that still
 * has such a listener. Nothing in the DOM, no attribute, changes.
 *
 * The page can see, fake or undo the patch; that only changes which of its own elements show
 * `[cursor=pointer]`, which its CSS could do anyway. Listeners added before the tab was attached
 * (a tab the user gave the agent) are not known until it reloads.
 */
import type { AttachHook } from '../tabStates';
import { CLICK_LISTENER_EVENTS } from '../common/constants';

function installClickListenerHook(requestType: string, itemType: string): void {
  const key = Symbol.for(requestType);
  const scope = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (scope[key] === true) return;
  scope[key] = true;
  const TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
  const proto = EventTarget.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const add = proto.addEventListener;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const remove = proto.removeEventListener;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const dispatch = proto.dispatchEvent;
  /** Per element, its click-like listeners as `type|capture` and the listener. */
  const listeners = new WeakMap<Element, { key: string; listener: unknown }[]>();
  const elements: WeakRef<Element>[] = [];
  const capture = (options: unknown): boolean =>
    typeof options === 'boolean'
      ? options
      : typeof options === 'object' && options !== null && 'capture' in options
        ? Boolean(options.capture)
        : false;
  // html and body listeners are page-wide delegation, not one control's.
  const tracked = (target: unknown, type: unknown, listener: unknown): target is Element =>
    target instanceof Element &&
    typeof type === 'string' &&
    TYPES.has(type) &&
    listener !== null &&
    target.localName !== 'html' &&
    target.localName !== 'body';

  function addEventListener(this: unknown, ...args: unknown[]): unknown {
    const [type, listener, options] = args;
    if (tracked(this, type, listener)) {
      const entryKey = `${String(type)}|${String(capture(options))}`;
      let list = listeners.get(this);
      if (list === undefined) {
        list = [];
        listeners.set(this, list);
        elements.push(new WeakRef(this));
      }
      if (!list.some((e) => e.key === entryKey && e.listener === listener))
        list.push({ key: entryKey, listener });
    }
    return Reflect.apply(add, this, args);
  }
  function removeEventListener(this: unknown, ...args: unknown[]): unknown {
    const [type, listener, options] = args;
    if (tracked(this, type, listener)) {
      const entryKey = `${String(type)}|${String(capture(options))}`;
      const list = listeners.get(this);
      if (list !== undefined)
        listeners.set(
          this,
          list.filter((e) => e.key !== entryKey || e.listener !== listener),
        );
    }
    return Reflect.apply(remove, this, args);
  }
  proto.addEventListener = addEventListener;
  proto.removeEventListener = removeEventListener;

  Reflect.apply(add, window, [
    requestType,
    () => {
      for (let i = elements.length - 1; i >= 0; i--) {
        const el = elements[i]?.deref();
        if (el === undefined) elements.splice(i, 1);
        else if (el.isConnected && (listeners.get(el)?.length ?? 0) > 0)
          Reflect.apply(dispatch, el, [new Event(itemType, { composed: true })]);
      }
    },
    true,
  ]);
}

/** The hook as a script: run in each new document of the tab, and once in the current one. */
export const CLICK_LISTENER_HOOK = `(${installClickListenerHook.toString()})(${JSON.stringify(
  CLICK_LISTENER_EVENTS.request,
)}, ${JSON.stringify(CLICK_LISTENER_EVENTS.item)});`;

export const recordClickListeners: AttachHook = async ({ cdp }) => {
  // Either fails on a page that refuses scripts (an error page mid-swap); the marks are a hint.
  await Promise.all([
    cdp
      .send('Page.addScriptToEvaluateOnNewDocument', { source: CLICK_LISTENER_HOOK })
      .catch(() => undefined),
    cdp.send('Runtime.evaluate', { expression: CLICK_LISTENER_HOOK }).catch(() => undefined),
  ]);
};
