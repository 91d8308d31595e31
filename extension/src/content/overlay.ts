/**
 * Draws the "<client> is working in this tab" marker on tabs an agent controls. It holds no
 * privileged logic: it only shows what the service worker tells it.
 */
import type { ContentMessage, OverlayState } from '../shared/messages';

const HOST_ID = 'browser-agent-overlay';

function render(client: string | null): void {
  document.getElementById(HOST_ID)?.remove();
  if (client === null) return;
  const host = document.createElement('div');
  host.id = HOST_ID;
  // Hidden from the accessibility tree so the marker never shows up in the agent's snapshots.
  host.setAttribute('aria-hidden', 'true');
  // A closed shadow root keeps page styles out and keeps the marker out of page scripts' reach.
  const root = host.attachShadow({ mode: 'closed' });
  const badge = document.createElement('div');
  badge.textContent = `Controlled by ${client}`;
  badge.style.cssText = [
    'position:fixed',
    'bottom:12px',
    'right:12px',
    'z-index:2147483647',
    'pointer-events:none',
    'font:600 12px/1.4 system-ui,sans-serif',
    'color:#fff',
    'background:rgba(109,40,217,.92)',
    'padding:6px 10px',
    'border-radius:999px',
    'box-shadow:0 2px 8px rgba(0,0,0,.25)',
  ].join(';');
  root.append(badge);
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
