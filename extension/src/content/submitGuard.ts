/**
 * Holds the submit of a form with a password, payment-card or one-time-code field while an
 * agent's call runs in this tab, until the user answers in the side panel (issue #7, an opt-in
 * setting). Runs in every frame from document_start, so its capture listener on window runs
 * before any listener of the page, and the page never sees a held submit.
 *
 * The worker arms the guard only for the length of an agent's call on this tab, so the user's
 * own submits pass untouched: CDP input is trusted input, and the page cannot tell it apart.
 * It holds no privileged logic: the worker decides, and answers with a release.
 */
import type { ContentMessage, GuardMessage, SecretFieldKind } from '../shared/messages';
import { secretKind } from '../shared/secretKind';

/** A backstop should the worker die mid-call: an armed guard disarms itself after this. */
const MAX_ARMED_MS = 5 * 60_000;

let armedUntil = 0;
let nextId = 1;
const held = new Map<number, { form: HTMLFormElement; submitter: HTMLElement | null }>();
/** The one submit the user allowed; it must pass the guard on its way through. */
let allowed: HTMLFormElement | undefined;

function secretFields(form: HTMLFormElement): SecretFieldKind[] {
  const kinds = new Set<SecretFieldKind>();
  for (const field of Array.from(form.elements)) {
    if (!(field instanceof HTMLInputElement)) continue;
    const kind = secretKind(field.type, field.getAttribute('autocomplete'));
    if (kind !== undefined) kinds.add(kind);
  }
  return [...kinds];
}

function targetOrigin(form: HTMLFormElement, submitter: HTMLElement | null): string {
  const override =
    (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) &&
    submitter.hasAttribute('formaction')
      ? submitter.formAction
      : undefined;
  try {
    return new URL(override ?? form.action, document.baseURI).origin;
  } catch {
    return location.origin;
  }
}

window.addEventListener(
  'submit',
  (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (allowed === form) return;
    if (Date.now() >= armedUntil) return;
    const fields = secretFields(form);
    if (fields.length === 0) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const id = nextId++;
    held.set(id, { form, submitter: event.submitter });
    const message: ContentMessage = {
      kind: 'submit_held',
      id,
      targetOrigin: targetOrigin(form, event.submitter),
      fields,
    };
    void chrome.runtime.sendMessage(message).catch(() => undefined);
  },
  true,
);

function arm(armed: boolean, forMs: number): void {
  armedUntil = armed ? Date.now() + Math.min(forMs, MAX_ARMED_MS) : 0;
}

/** True when the allowed form was submitted again; false when it is gone or was refused. */
function release(id: number, allow: boolean): boolean {
  const entry = held.get(id);
  held.delete(id);
  if (!allow || entry === undefined || !entry.form.isConnected) return false;
  const { form, submitter } = entry;
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
  (message: GuardMessage | { kind: string }, _sender, sendResponse: (r: boolean) => void) => {
    if (message.kind === 'guard_arm' && 'armed' in message) arm(message.armed, message.forMs);
    if (message.kind === 'guard_release' && 'allow' in message)
      sendResponse(release(message.id, message.allow));
  },
);

// A document that loads while an agent's call runs (the agent navigated) starts armed too.
const query: ContentMessage = { kind: 'guard_query' };
chrome.runtime
  .sendMessage(query)
  .then((answer: GuardMessage | undefined) => {
    if (answer?.kind === 'guard_arm') arm(answer.armed, answer.forMs);
  })
  .catch(() => undefined);
