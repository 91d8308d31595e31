/**
 * Holds the submit of a form with a password, payment-card or one-time-code field while an
 * agent's call runs in this tab, until the user answers in the side panel (issue #7, an opt-in
 * setting). Runs in every frame from document_start, so its capture listener on window runs
 * before any listener of the page, and the page never sees a held submit.
 *
 * What it sees:
 * - `submit` events in the document (a click on a submit button, Enter, `requestSubmit()`);
 * - `submit` events inside shadow roots, where the event stays: each root the agent's input or
 *   a script's submit call crosses gets the same listener (shadowRoots.ts) before the submit;
 * - `form.submit()`, which fires no event, through the main-world hook (submitHook.ts).
 *
 * The worker arms the guard only for the length of an agent's call on this tab, so the user's
 * own submits pass untouched: CDP input is trusted input, and the page cannot tell it apart.
 * It holds no privileged logic: the worker decides, and answers with a release.
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
import type { ContentMessage, GuardMessage, IrreversibleKind } from '../shared/messages';
import {
  clickable,
  clickKinds,
  defaultSubmitter,
  formFacts,
  labelOf,
  submitKinds,
} from './irreversible';
import { secretFields, secretFormsIn, targetOrigin } from './secretForms';
import { shadowRootsOnPath } from './shadowRoots';
import { watchSecretTyping } from './secretTyping';

/** A backstop should the worker die mid-call: an armed guard disarms itself after this. */
const MAX_ARMED_MS = 5 * 60_000;

/** Composed events that precede a submit inside a shadow root: they show the guard the root. */
const DISCOVERING_EVENTS = [
  GUARD_DISCOVER_EVENT,
  'focusin',
  'pointerdown',
  'mousedown',
  'click',
  'keydown',
];

type HeldForm =
  | {
      form: HTMLFormElement;
      submitter: HTMLElement | null;
      /** `submit()` skips validation and the page's submit listeners; a release must too. */
      via: 'submit' | 'requestSubmit';
    }
  /** A click on an irreversible-looking button or link (issue #19). */
  | { element: HTMLElement; via: 'click' };

let armedUntil = 0;
/** What an armed guard holds (issue #19): secret-field submits, irreversible-looking actions. */
let holdSecret = true;
let holdIrreversible = false;
/** True while an allowed click is replayed: what it starts (a submit) passes. */
let replaying = false;
let nextId = 1;
const held = new Map<number, HeldForm>();
const watchedRoots = new WeakSet<ShadowRoot>();
/** The one submit the user allowed; it must pass the guard on its way through. */
let allowed: HTMLFormElement | undefined;

const isArmed = (): boolean => Date.now() < armedUntil;

/** True when it held the submit. */
function hold(
  form: HTMLFormElement,
  submitter: HTMLElement | null,
  via: 'submit' | 'requestSubmit',
): boolean {
  if (allowed === form || replaying || !isArmed()) return false;
  const fields = holdSecret ? secretFields(form) : [];
  // Without a submitter (requestSubmit(), submit()) the form's own submit button says what it does.
  const judged = submitter ?? defaultSubmitter(form);
  const label = judged ? labelOf(judged) : '';
  const irreversible = holdIrreversible ? submitKinds(label, formFacts(form, submitter)) : [];
  if (fields.length === 0 && irreversible.length === 0) return false;
  report({ form, submitter, via }, targetOrigin(form, submitter), fields, irreversible, label);
  return true;
}

function report(
  entry: HeldForm,
  target: string,
  fields: ReturnType<typeof secretFields>,
  irreversible: IrreversibleKind[],
  label: string,
): void {
  const id = nextId++;
  held.set(id, entry);
  const message: ContentMessage = {
    kind: 'submit_held',
    id,
    targetOrigin: target,
    fields,
    action: entry.via === 'click' ? 'click' : 'submit',
    irreversible,
    label,
  };
  void chrome.runtime.sendMessage(message).catch(() => undefined);
}

/** A trusted click on a button or link that looks irreversible is held like a submit. */
function onClick(event: MouseEvent): void {
  if (!event.isTrusted || replaying || !holdIrreversible || !isArmed()) return;
  // Inside an open shadow root the event is retargeted to its host; the path has the button.
  const element = clickable(event.composedPath()[0] ?? event.target);
  if (!(element instanceof HTMLElement)) return;
  const kinds = clickKinds(element);
  if (kinds.length === 0) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const href = element instanceof HTMLAnchorElement ? element.href : location.href;
  let target = location.origin;
  try {
    target = new URL(href).origin;
  } catch {
    // An unparsable href acts on this page.
  }
  report({ element, via: 'click' }, target, [], kinds, labelOf(element));
}

function onSubmit(event: SubmitEvent): void {
  // A page's own `dispatchEvent(new SubmitEvent('submit'))` sends nothing, so it is no reason to
  // ask the user anything; only the browser's submit events (click, Enter, requestSubmit) are.
  if (!event.isTrusted) return;
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !hold(form, event.submitter, 'requestSubmit')) return;
  event.preventDefault();
  event.stopImmediatePropagation();
}

/**
 * The private element shared with the main-world hook (guardEvents.ts): the hook brackets each
 * real `submit()` event with events on it, which no page script can see or send.
 */
const channel = document.createElement('span');
let channelTaken = false;
let realCall = false;
channel.addEventListener(GUARD_CHANNEL_TAKEN, () => (channelTaken = true));
channel.addEventListener(GUARD_REAL_START, () => (realCall = true));
channel.addEventListener(GUARD_REAL_END, () => (realCall = false));
function offerChannel(): void {
  if (channelTaken) return;
  // Attached for the instant of the event, so it reaches the hook's listener on document.
  const parent = document.documentElement ?? document;
  parent.appendChild(channel);
  try {
    channel.dispatchEvent(new Event(GUARD_CHANNEL_EVENT, { bubbles: true }));
  } finally {
    channel.remove();
  }
}
document.addEventListener(GUARD_HELLO_EVENT, offerChannel, true);
offerChannel();

/** The hook's event for a `form.submit()` call; cancelling it stops the call. */
function onSubmitCall(event: Event): void {
  const real = realCall;
  // One held form per real call: a page listener that runs first cannot pass a forgery off.
  realCall = false;
  // A page's own copy of the event (no real call around it) is no submit and holds nothing.
  if (!real) {
    event.stopImmediatePropagation();
    return;
  }
  const form = event.target;
  if (form instanceof HTMLFormElement && hold(form, null, 'submit')) event.preventDefault();
  event.stopImmediatePropagation();
}

function watch(target: Window | ShadowRoot): void {
  target.addEventListener('submit', onSubmit as EventListener, true);
  target.addEventListener(GUARD_SUBMIT_EVENT, onSubmitCall, true);
}

function discoverRoots(event: Event): void {
  if (!isArmed()) return;
  for (const root of shadowRootsOnPath(event)) {
    if (watchedRoots.has(root)) continue;
    watchedRoots.add(root);
    watch(root);
  }
}

watch(window);
window.addEventListener('click', onClick, true);
for (const type of DISCOVERING_EVENTS) window.addEventListener(type, discoverRoots, true);

function arm(message: Extract<GuardMessage, { kind: 'guard_arm' }>): void {
  const { armed, forMs } = message;
  armedUntil = armed ? Date.now() + Math.min(forMs, MAX_ARMED_MS) : 0;
  holdSecret = message.secret ?? true;
  holdIrreversible = message.irreversible ?? false;
}

/** True when the allowed form was submitted again; false when it is gone or was refused. */
function release(id: number, allow: boolean): boolean {
  const entry = held.get(id);
  held.delete(id);
  if (!allow || entry === undefined) return false;
  if (entry.via === 'click') {
    if (!entry.element.isConnected) return false;
    // Untrusted, from this world: the page's listeners and the default action run once.
    replaying = true;
    try {
      entry.element.click();
    } finally {
      replaying = false;
    }
    return true;
  }
  if (!entry.form.isConnected) return false;
  const { form, submitter, via } = entry;
  // This world's submit() is the native one, never the page's hooked one, and fires no event.
  if (via === 'submit') {
    form.submit();
    return true;
  }
  // requestSubmit fires the submit event synchronously, so the pass is used up (or, when
  // validation stops it, dropped) before this returns.
  allowed = form;
  try {
    // It runs validation and the page's submit listeners, as the original submit would have.
    form.requestSubmit(submitter?.isConnected === true ? submitter : null);
  } catch {
    // The submitter left the form meanwhile.
    form.requestSubmit();
  } finally {
    allowed = undefined;
  }
  return true;
}

chrome.runtime.onMessage.addListener(
  (
    message: GuardMessage | { kind: string },
    _sender,
    sendResponse: (r: boolean | string[]) => void,
  ) => {
    if (message.kind === 'guard_arm' && 'armed' in message) arm(message);
    if (message.kind === 'guard_release' && 'allow' in message)
      sendResponse(release(message.id, message.allow));
    if (message.kind === 'guard_probe') {
      // Only a frame with such a form answers: the first answer of any frame is the one kept.
      const kinds = secretFormsIn();
      if (kinds.length > 0) sendResponse(kinds);
    }
    // The download gate's question (approvals/pdfViewer.ts): a page's own getter on Navigator
    // is not seen from this isolated world.
    if (message.kind === 'pdf_viewer_probe' && window === window.top)
      sendResponse(navigator.pdfViewerEnabled);
  },
);

// Runs in every frame from document_start, like the guard: values typed into secret fields.
watchSecretTyping();

// A document that loads while an agent's call runs (the agent navigated) starts armed too.
const query: ContentMessage = { kind: 'guard_query' };
chrome.runtime
  .sendMessage(query)
  .then((answer: GuardMessage | undefined) => {
    if (answer?.kind === 'guard_arm') arm(answer);
  })
  .catch(() => undefined);
