import type { Frame, RequestFrame, ResponseFrame } from '@browser-agent/protocol';
import { bridgePort } from './bridgePort';
import { ActivityLog } from './activityLog';
import { RelayClient, type LinkState } from './relayClient';
import { SessionList } from './sessionList';

function element(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from the side panel page`);
  return el;
}

const statusEl = element('status');
const detailEl = element('status-detail');
const sessions = new SessionList(element('sessions'));
const log = new ActivityLog(element('log'), (sessionId) => sessions.clientName(sessionId));

const relay = new RelayClient(bridgePort(), {
  state(state: LinkState, detail: string) {
    statusEl.dataset['state'] = state;
    statusEl.textContent = state;
    detailEl.textContent = detail;
  },
  request: (frame: RequestFrame) => log.started(frame),
  response: (frame: ResponseFrame) => log.finished(frame),
  session: (frame: Extract<Frame, { type: 'session_start' | 'session_end' }>) =>
    sessions.apply(frame),
});
relay.start();
