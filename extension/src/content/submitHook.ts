/**
 * Main-world half of the submit guard (issue #7). `form.submit()` fires no `submit` event, and
 * a form's `submit` event does not leave its shadow root, so the isolated-world guard alone sees
 * neither. This hook, installed at document_start before any page script, tells the guard about
 * every `submit()` and `requestSubmit()` call through synchronous DOM events on the form:
 * - a composed "discover" event, whose path lets the guard start watching the shadow roots the
 *   form sits in before the form's own `submit` event is fired there;
 * - for `submit()`, a cancelable event that the guard cancels to hold the call.
 *
 * It decides nothing and holds no state. The guard cancels only while an agent's call runs in
 * this tab, so everywhere else the native method runs exactly as before, with the same `this`,
 * arguments, result and exceptions. The page can see or undo this patch; that costs it nothing
 * it could not do anyway (it can send its own fields with fetch), and undoing it only makes an
 * agent's submit go unasked on that page, as it did before this hook existed.
 */
import {
  GUARD_CHANNEL_EVENT,
  GUARD_CHANNEL_TAKEN,
  GUARD_DISCOVER_EVENT,
  GUARD_HELLO_EVENT,
  GUARD_REAL_END,
  GUARD_REAL_START,
  GUARD_SUBMIT_EVENT,
} from '../shared/guardEvents';

// Taken before any page script runs, so a page that replaces them later does not change ours.
// They are meant to be unbound: each is applied to its form with Reflect.apply.
const formProto = HTMLFormElement.prototype;
// eslint-disable-next-line @typescript-eslint/unbound-method
const nativeSubmit = formProto.submit;
// eslint-disable-next-line @typescript-eslint/unbound-method
const nativeRequestSubmit = formProto.requestSubmit;
// eslint-disable-next-line @typescript-eslint/unbound-method
const dispatch = EventTarget.prototype.dispatchEvent;
const NativeEvent = Event;
const isForm = (value: unknown): value is HTMLFormElement => value instanceof HTMLFormElement;

/** The guard's private element (see guardEvents.ts); the first one handed over is kept. */
let channel: EventTarget | undefined;
const takeChannel = (event: Event): void => {
  if (channel !== undefined || !event.target) return;
  channel = event.target;
  Reflect.apply(dispatch, channel, [new NativeEvent(GUARD_CHANNEL_TAKEN)]);
};
document.addEventListener(GUARD_CHANNEL_EVENT, takeChannel, true);
Reflect.apply(dispatch, document, [new NativeEvent(GUARD_HELLO_EVENT)]);
const onChannel = (type: string): void => {
  if (channel !== undefined) Reflect.apply(dispatch, channel, [new NativeEvent(type)]);
};

/** False when the guard held the call. */
function announce(form: HTMLFormElement, cancelableKind: 'submit' | undefined): boolean {
  Reflect.apply(dispatch, form, [new NativeEvent(GUARD_DISCOVER_EVENT, { composed: true })]);
  if (cancelableKind === undefined) return true;
  onChannel(GUARD_REAL_START);
  try {
    return Reflect.apply(dispatch, form, [
      new NativeEvent(GUARD_SUBMIT_EVENT, { cancelable: true }),
    ]);
  } finally {
    onChannel(GUARD_REAL_END);
  }
}

// Named as the native methods, and of the same length (0).
function submit(this: unknown): void {
  if (isForm(this) && !announce(this, 'submit')) return;
  Reflect.apply(nativeSubmit, this, []);
}
function requestSubmit(this: unknown, ...args: [submitter?: HTMLElement | null]): void {
  if (isForm(this)) announce(this, undefined);
  Reflect.apply(nativeRequestSubmit, this, args);
}
formProto.submit = submit;
formProto.requestSubmit = requestSubmit;
