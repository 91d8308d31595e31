import { serializeFrame, type RelayToWorkerFrame } from '@browser-agent/protocol';
import { RelayClient } from '../shared/relayClient';
import {
  PANEL_PORT_NAME,
  type LinkState,
  type PanelToWorker,
  type Settings,
  type WorkerToPanel,
} from '../shared/messages';
import { bridgePort, launchedBrowser, noBrowserPolicy, spareTarget } from './bridgePort';
import { ActivityLog } from './activityLog';
import { SessionList } from './sessionList';
import { SettingsView } from './settingsView';
import { byId } from './dom';
import { PairingView } from './pairingView';
import { QuestionView } from './questionView';
import { RecordingView } from './recordingView';
import { PermissionsView } from './permissionsView';
import { adoptPairingFromFragment } from '../shared/pairings';
import { inMemoryContext } from '../shared/storageAreas';
import { launchHandoff } from './launchHandoff';

/** Under the worker's 30 s idle limit, so an idle but connected worker is not stopped. */
const WORKER_KEEPALIVE_MS = 20_000;
const PORT_RECONNECT_MS = 100;

const statusEl = byId('status');
const detailEl = byId('status-detail');
function showLink(state: LinkState, detail: string): void {
  statusEl.dataset['state'] = state;
  statusEl.textContent = state;
  detailEl.textContent = detail;
}

let port: chrome.runtime.Port | undefined;
let relay: RelayClient | undefined;
/**
 * In a launched browser the page hands the link to the worker; until the worker's settings say it
 * took it, this page must not connect itself, or the two relays would race for the one link.
 */
let awaitingHandOver = launchedBrowser();
/**
 * An isolated launch's context (shared/storageAreas.ts): this page and the worker each keep their
 * storage in their own memory, so the page hands the worker the pairing and settings in a message
 * (LaunchHandoff), on connect and after every worker restart.
 */
const handsOff = launchedBrowser() && inMemoryContext();

/** The one typed channel to the worker; reopened when the worker restarts. */
function toWorker(message: PanelToWorker): void {
  workerPort().postMessage(message);
}

function workerPort(): chrome.runtime.Port {
  if (port) return port;
  const p = chrome.runtime.connect({ name: PANEL_PORT_NAME });
  p.onMessage.addListener((m: WorkerToPanel) => onWorkerMessage(m));
  p.onDisconnect.addListener(() => {
    port = undefined;
    relay?.workerGone();
    // A restarted worker has lost its memory and greets with its defaults (the page holding the
    // link): they are ignored until the hand-off below has reached it.
    if (handsOff) awaitingHandOver = true;
    // Reconnecting wakes the worker again and brings the panel's view back in step.
    setTimeout(() => {
      const next = workerPort();
      if (handsOff) void handOff(next);
    }, PORT_RECONNECT_MS);
  });
  port = p;
  return p;
}

async function handOff(p: chrome.runtime.Port): Promise<void> {
  const message = await launchHandoff(await pairingAdopted);
  // A port that closed meanwhile has a successor, which sends its own.
  if (port === p) p.postMessage(message satisfies PanelToWorker);
}

const log = new ActivityLog(byId('log'), byId('log-filter'), byId('log-all'));
const sessions = new SessionList(
  byId('sessions'),
  {
    control: (action, sessionId) => toWorker({ kind: 'control', action, sessionId }),
    setMode: (sessionId, mode) => toWorker({ kind: 'set_mode', sessionId, mode }),
    filter: (sessionId, client) => log.filter(sessionId, client),
    stopAll: () => toWorker({ kind: 'stop_all' }),
    resumeAll: () => toWorker({ kind: 'resume_all' }),
  },
  byId<HTMLButtonElement>('stop-all'),
  byId<HTMLButtonElement>('resume-all'),
);
const recordingView = new RecordingView(byId('recordings'));
recordingView.refresh();
const pairingView = new PairingView();
pairingView.onForget = (id) => {
  relay?.unpair(id);
  if (handsOff) toWorker({ kind: 'forget_pairing', id });
};
// A pairing handed over in the URL (launch mode) must be stored before the first hello.
const pairingAdopted = adoptPairingFromFragment(location, history).then(async (adopted) => {
  await pairingView.render();
  return adopted;
});
const questionView = new QuestionView(byId('questions'), (id, allow, scope) =>
  toWorker({ kind: 'submit_answer', id, allow, ...(scope ? { scope } : {}) }),
);
const permissionsView = new PermissionsView(byId('permissions-body'), toWorker);
const settingsView = new SettingsView((patch) => toWorker({ kind: 'settings', settings: patch }));

function onWorkerMessage(m: WorkerToPanel): void {
  switch (m.kind) {
    case 'frame':
      relay?.fromWorkerText(m.text);
      return;
    case 'sessions':
      sessions.render(m.sessions);
      permissionsView.showSessions(m.sessions);
      return;
    case 'activity':
      log.upsert(m.entry);
      return;
    case 'activity_all':
      log.replaceAll(m.entries);
      return;
    case 'link':
      if (!relay) showLink(m.state, m.detail);
      return;
    case 'questions':
      questionView.render(m.questions);
      return;
    case 'recording':
      recordingView.refresh();
      return;
    case 'permissions':
      permissionsView.show(m.permissions);
      return;
    case 'settings':
      void pairingAdopted.then(() => applySettings(m.settings));
      return;
  }
}

/** The panel holds the link unless the user moved it to the worker. */
function applySettings(settings: Settings): void {
  settingsView.show(settings);
  permissionsView.showSettings(settings);
  if (awaitingHandOver) {
    if (!settings.keepWorkingWhenPanelClosed) return;
    awaitingHandOver = false;
  }
  if (settings.keepWorkingWhenPanelClosed) {
    relay?.stop('The service worker now holds the link.');
    relay = undefined;
    return;
  }
  if (relay) return;
  relay = new RelayClient(
    bridgePort(),
    {
      post: (frame: RelayToWorkerFrame) => toWorker({ kind: 'frame', text: serializeFrame(frame) }),
    },
    (state, detail) =>
      showLink(
        state,
        state === 'connected'
          ? `${detail} This panel holds the link: closing it stops the agents (see Settings).`
          : detail,
      ),
    (problem, clients) => pairingView.askCode(problem, clients),
  );
  relay.start();
}

if (handsOff) {
  // The hand-off carries what the messages below say, and the pairing besides.
  void handOff(workerPort());
} else {
  workerPort();
  // Before any frame this page relays, so the first call already knows it need not wait.
  if (noBrowserPolicy()) toWorker({ kind: 'no_browser_policy' });
  const spare = spareTarget();
  if (spare !== undefined) toWorker({ kind: 'spare_tab', targetId: spare });
  // The worker-held link needs to know the port this panel was opened with. A launched browser is
  // ours, so the worker holds the link there (the runtime-messaging hop is gone); the user can
  // still pause or revoke sessions here, and give the link back to this page in Settings.
  if (launchedBrowser())
    void pairingAdopted.then(() =>
      toWorker({
        kind: 'settings',
        settings: { bridgePort: bridgePort(), keepWorkingWhenPanelClosed: true },
      }),
    );
  else toWorker({ kind: 'settings', settings: { bridgePort: bridgePort() } });
}
setInterval(
  () => toWorker({ kind: 'frame', text: serializeFrame({ type: 'ping', t: Date.now() }) }),
  WORKER_KEEPALIVE_MS,
);
