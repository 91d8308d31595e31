import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, PanelToWorker, WorkerToPanel } from '../../shared/messages';
import { PANEL_PORT_NAME } from '../../shared/messages';
import {
  LIVE_VIEW_AT_START_MS,
  LIVE_VIEW_MAX_DELAY_MS,
  LIVE_VIEW_QUIET_MS,
  PanelHub,
} from './panelHub';

const ID = 'ourextensionid';

/** A panel's port as the worker sees it: what it was sent, in order. */
function panelPort(): { port: chrome.runtime.Port; received: WorkerToPanel[] } {
  const received: WorkerToPanel[] = [];
  const port = {
    name: PANEL_PORT_NAME,
    sender: { id: ID, url: `chrome-extension://${ID}/src/sidepanel/index.html` },
    postMessage: (m: WorkerToPanel) => received.push(m),
    disconnect: () => undefined,
    onDisconnect: { addListener: () => undefined },
    onMessage: { addListener: () => undefined },
  } as unknown as chrome.runtime.Port;
  return { port, received };
}

function entry(id: string, outcome?: string): ActivityEntry {
  return {
    id,
    sessionId: 's1',
    client: 'agent',
    tool: 'browser_navigate',
    args: '{}',
    details: '{}',
    host: undefined,
    summary: undefined,
    startedAt: 1,
    durationMs: outcome === undefined ? undefined : 5,
    outcome,
  };
}

/** A hub with one panel connected that greets it with nothing. */
function connected(): { hub: PanelHub; panel: ReturnType<typeof panelPort> } {
  const hub = new PanelHub(
    () => undefined,
    () => undefined,
  );
  const panel = panelPort();
  hub.accept(panel.port);
  return { hub, panel };
}

describe('PanelHub', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('chrome', {
      runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}/${path}` },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends live-log entries and session views once calls are quiet, the latest of each once', () => {
    const { hub, panel } = connected();
    hub.broadcast({ kind: 'activity', entry: entry('a') });
    hub.broadcast({ kind: 'sessions', sessions: [] });
    hub.broadcast({ kind: 'activity', entry: entry('a', 'ok') });
    vi.advanceTimersByTime(LIVE_VIEW_QUIET_MS - 1);
    expect(panel.received).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(panel.received).toEqual([
      { kind: 'activity', entry: entry('a', 'ok') },
      { kind: 'sessions', sessions: [] },
    ]);
  });

  it('while calls keep coming, sends them with a call that starts, never as one ends', () => {
    const { hub, panel } = connected();
    for (let t = 0; t < LIVE_VIEW_AT_START_MS; t += 10) {
      hub.broadcast({ kind: 'activity', entry: entry(`c${t}`) });
      vi.advanceTimersByTime(5);
      hub.broadcast({ kind: 'activity', entry: entry(`c${t}`, 'ok') });
      vi.advanceTimersByTime(5);
    }
    expect(panel.received).toEqual([]);
    hub.broadcast({ kind: 'activity', entry: entry('next') });
    expect(panel.received.at(-1)).toEqual({ kind: 'activity', entry: entry('next') });
    expect(panel.received).toHaveLength(LIVE_VIEW_AT_START_MS / 10 + 1);
  });

  it('shows a long call as running after the maximum delay', () => {
    const { hub, panel } = connected();
    hub.broadcast({ kind: 'activity', entry: entry('long') });
    vi.advanceTimersByTime(LIVE_VIEW_MAX_DELAY_MS - 1);
    expect(panel.received).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(panel.received).toEqual([{ kind: 'activity', entry: entry('long') }]);
  });

  it('sends everything else at once', () => {
    const { hub, panel } = connected();
    hub.broadcast({ kind: 'questions', questions: [] });
    expect(panel.received).toEqual([{ kind: 'questions', questions: [] }]);
  });

  it('flushes what waits before a new panel is greeted, so nothing older follows its greeting', () => {
    const hub = new PanelHub(
      () => undefined,
      (send) => send({ kind: 'activity_all', entries: [] }),
    );
    const first = panelPort();
    hub.accept(first.port);
    hub.broadcast({ kind: 'activity', entry: entry('a') });
    const second = panelPort();
    hub.accept(second.port);
    expect(first.received).toEqual([
      { kind: 'activity_all', entries: [] },
      { kind: 'activity', entry: entry('a') },
    ]);
    expect(second.received).toEqual([{ kind: 'activity_all', entries: [] }]);
    vi.advanceTimersByTime(LIVE_VIEW_MAX_DELAY_MS);
    expect(second.received).toHaveLength(1);
  });

  it("hands a panel's messages on with its page as sender, and never listens to a web page", () => {
    const heard: Array<{ message: PanelToWorker; url: string | undefined }> = [];
    const hub = new PanelHub(
      (message, _reply, sender) => void heard.push({ message, url: sender?.url }),
      () => undefined,
    );
    const ports = [panelPort(), panelPort()].map(({ port }) => {
      const listeners: Array<(m: PanelToWorker) => void> = [];
      let disconnected = false;
      Object.assign(port, {
        onMessage: { addListener: (l: (m: PanelToWorker) => void) => listeners.push(l) },
        disconnect: () => (disconnected = true),
      });
      return {
        port,
        say: (m: PanelToWorker) => listeners.forEach((l) => l(m)),
        disconnected: () => disconnected,
      };
    });
    const [panel, page] = ports;
    if (!panel || !page) throw new Error('two ports');
    Object.assign(page.port, {
      sender: { id: ID, url: 'https://evil.test/', tab: { id: 3, incognito: true } },
    });
    hub.accept(panel.port);
    hub.accept(page.port);
    panel.say({ kind: 'stop_all' });
    page.say({ kind: 'resume_all' });
    expect(heard).toEqual([
      { message: { kind: 'stop_all' }, url: `chrome-extension://${ID}/src/sidepanel/index.html` },
    ]);
    expect(page.disconnected()).toBe(true);
    expect(panel.disconnected()).toBe(false);
  });
});
