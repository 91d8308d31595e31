/**
 * Draws "<client> is working in this tab" on tabs an agent controls, with a one-click "Take over"
 * that pauses the agent. It holds no privileged logic: it shows what the worker tells it and
 * passes the click on.
 */
import type { ContentMessage, OverlayState } from '../shared/messages';

const HOST_ID = 'browser-agent-overlay';

const STYLE = `
  .bar { position: fixed; bottom: 12px; right: 12px; z-index: 2147483647; display: flex; gap: 8px;
    align-items: center; font: 600 12px/1.4 system-ui, sans-serif; color: #fff;
    background: rgba(109, 40, 217, .92); padding: 4px 4px 4px 10px; border-radius: 999px;
    box-shadow: 0 2px 8px rgba(0, 0, 0, .25); pointer-events: none; }
  button { pointer-events: auto; font: inherit; color: #4c1d95; background: #fff; border: 0;
    border-radius: 999px; padding: 2px 10px; cursor: pointer; }
  button:focus-visible { outline: 2px solid #facc15; }
`;

function render(client: string | null): void {
  document.getElementById(HOST_ID)?.remove();
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
  document.documentElement.append(host);
}

chrome.runtime.onMessage.addListener((message: OverlayState) => {
  if (message.kind === 'overlay') render(message.client);
});

const query: ContentMessage = { kind: 'overlay_query' };
chrome.runtime
  .sendMessage(query)
  .then((state: OverlayState | undefined) => render(state?.client ?? null))
  .catch(() => undefined);
