/**
 * Draws "<client> is working in this tab" on tabs an agent controls, with a one-click "Take over"
 * that pauses the agent, and the agent's open question on this tab with its answers (issue #19).
 * It holds no privileged logic: it shows what the worker tells it and passes the clicks on; the
 * worker refuses an answer while the agent has another call running (its input is trusted too).
 */
import type { ApprovalScope } from '@browser-agent/protocol';
import { OVERLAY_HOST_ID, type ContentMessage, type OverlayState } from '../shared/messages';

const SCOPE_LABELS: Record<ApprovalScope, string> = {
  once: 'Allow',
  site: 'Allow on this site',
  task: 'Allow for the rest of this task',
};

const HOST_ID = OVERLAY_HOST_ID;

const STYLE = `
  .bar { position: fixed; bottom: 12px; right: 12px; z-index: 2147483647; display: flex; gap: 8px;
    align-items: center; font: 600 12px/1.4 system-ui, sans-serif; color: #fff;
    background: rgba(109, 40, 217, .92); padding: 4px 4px 4px 10px; border-radius: 999px;
    box-shadow: 0 2px 8px rgba(0, 0, 0, .25); pointer-events: none; }
  button { pointer-events: auto; font: inherit; color: #4c1d95; background: #fff; border: 0;
    border-radius: 999px; padding: 2px 10px; cursor: pointer; }
  button:focus-visible { outline: 2px solid #facc15; }
  .question { position: fixed; bottom: 48px; right: 12px; z-index: 2147483647; max-width: 360px;
    font: 13px/1.4 system-ui, sans-serif; color: #111; background: #fff; border: 2px solid #6d28d9;
    border-radius: 10px; padding: 10px 12px; box-shadow: 0 4px 16px rgba(0, 0, 0, .3); }
  .question p { margin: 0 0 8px; font-weight: 600; }
  .question button { color: #fff; background: #6d28d9; margin: 0 6px 4px 0; padding: 4px 10px; }
  .question button.deny { background: #b91c1c; }
  .question .countdown { margin: 0 0 8px; color: #555; font-size: 12px; }
  .target { position: fixed; z-index: 2147483646; pointer-events: none; border-radius: 4px;
    outline: 3px solid #6d28d9; outline-offset: 2px; background: rgba(109, 40, 217, .12); }
`;

/** The question's countdown, updated while its box is shown. */
let countdownTimer: ReturnType<typeof setInterval> | undefined;

function render(client: string | null, question?: OverlayState['question']): void {
  document.getElementById(HOST_ID)?.remove();
  clearInterval(countdownTimer);
  if (client === null) return;
  const host = document.createElement('div');
  host.id = HOST_ID;
  // Hidden from the accessibility tree so the marker never shows up in the agent's snapshots.
  host.setAttribute('aria-hidden', 'true');
  // A closed shadow root keeps page styles out and the marker out of page scripts' reach.
  const root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = STYLE;
  const bar = document.createElement('div');
  bar.className = 'bar';
  const label = document.createElement('span');
  label.textContent = `${client} is working in this tab`;
  const takeOver = document.createElement('button');
  takeOver.type = 'button';
  takeOver.textContent = 'Take over';
  takeOver.title = 'Pause the agent so you can use this tab';
  takeOver.addEventListener('click', () => {
    const message: ContentMessage = { kind: 'take_over' };
    void chrome.runtime.sendMessage(message);
    label.textContent = `${client} is paused`;
    takeOver.remove();
  });
  bar.append(label, takeOver);
  root.append(style, bar);
  if (question !== undefined) {
    // The element the question is about, outlined where it was when the question was asked.
    if (question.highlight !== undefined) root.append(targetBox(question.highlight));
    root.append(questionBox(question));
  }
  document.documentElement.append(host);
}

/** What to draw once the document is parsed: the script runs at document_start (manifest). */
let waiting: Parameters<typeof render> | undefined;

/**
 * Draws now, or at DOMContentLoaded while the parser still runs, so the marker is appended after
 * the page's own body as it was when the script ran at document_idle, and the page's DOM is never
 * touched during its parse. The last state asked for is the one drawn.
 */
function show(...state: Parameters<typeof render>): void {
  if (document.readyState !== 'loading') {
    render(...state);
    return;
  }
  if (waiting === undefined)
    document.addEventListener(
      'DOMContentLoaded',
      () => {
        const latest = waiting;
        waiting = undefined;
        if (latest !== undefined) render(...latest);
      },
      { once: true },
    );
  waiting = state;
}

function questionBox(question: NonNullable<OverlayState['question']>): HTMLElement {
  const box = document.createElement('div');
  box.className = 'question';
  box.setAttribute('role', 'alertdialog');
  const text = document.createElement('p');
  text.textContent = question.text;
  const countdown = document.createElement('p');
  countdown.className = 'countdown';
  const tick = (): void => {
    const seconds = Math.max(0, Math.ceil((question.expiresAt - Date.now()) / 1000));
    countdown.textContent = `Not done unless you answer within ${seconds} s.`;
  };
  tick();
  countdownTimer = setInterval(tick, 1000);
  box.append(text, countdown);
  const answer = (allow: boolean, scope: ApprovalScope) => (event: MouseEvent) => {
    // Only a real click: a page cannot reach this closed root, and a synthetic one is refused.
    if (!event.isTrusted) return;
    const message: ContentMessage = { kind: 'overlay_answer', id: question.id, allow, scope };
    void chrome.runtime.sendMessage(message);
    box.remove();
  };
  for (const scope of question.scopes) {
    const allow = document.createElement('button');
    allow.type = 'button';
    allow.textContent = SCOPE_LABELS[scope];
    allow.addEventListener('click', answer(true, scope));
    box.append(allow);
  }
  const deny = document.createElement('button');
  deny.type = 'button';
  deny.className = 'deny';
  deny.textContent = 'Deny';
  deny.addEventListener('click', answer(false, 'once'));
  box.append(deny);
  return box;
}

function targetBox(
  rect: NonNullable<NonNullable<OverlayState['question']>['highlight']>,
): HTMLElement {
  const box = document.createElement('div');
  box.className = 'target';
  box.style.left = `${rect.x}px`;
  box.style.top = `${rect.y}px`;
  box.style.width = `${rect.width}px`;
  box.style.height = `${rect.height}px`;
  return box;
}

chrome.runtime.onMessage.addListener((message: OverlayState) => {
  if (message.kind === 'overlay' && window === window.top) show(message.client, message.question);
});

const query: ContentMessage = { kind: 'overlay_query' };
chrome.runtime
  .sendMessage(query)
  .then((state: OverlayState | undefined) => {
    if (window === window.top) show(state?.client ?? null, state?.question);
  })
  .catch(() => undefined);
