/**
 * The side panel's side of the worker: what a panel asks (a relayed frame, a control, an answer,
 * a setting), and what a panel that connects is told first.
 */
import {
  parseRelayToWorker,
  serializeFrame,
  type RelayToWorkerFrame,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type { Permissions } from '../approvals/permissions';
import type { Controls } from '../controls';
import type { Activity } from '../panel/activity';
import type { BackgroundRelay } from '../panel/backgroundRelay';
import type { PanelHub } from '../panel/panelHub';
import { loadSettings, saveSettings } from '../settings';
import { chromeHandoffContext, forgetHandedPairing, takeHandoff } from './launchHandoff';
import type { SpareTab } from './spareTab';
import { takePipeHandoff } from './pipeHandoff';
import type { PanelToWorker, SessionView, WorkerToPanel } from '../../shared/messages';

export interface PanelMessagesDeps {
  panels: PanelHub;
  permissions: Permissions;
  controls: Controls;
  activity: Activity;
  background: BackgroundRelay;
  onRelayFrame(frame: RelayToWorkerFrame, reply: (frame: WorkerToRelayFrame) => void): void;
  stopAll(): Promise<void>;
  resumeAll(): Promise<void>;
  applySettings(): Promise<void>;
  /** Every session as the panel's agent cards show it. */
  sessionViews(): Promise<SessionView[]>;
  /** A launched browser's startup tab, for the first session's first tab. */
  spareTab: SpareTab;
}

export class PanelMessages {
  readonly #deps: PanelMessagesDeps;

  constructor(deps: PanelMessagesDeps) {
    this.#deps = deps;
  }

  async onMessage(
    message: PanelToWorker,
    reply: (m: WorkerToPanel) => void,
    sender?: chrome.runtime.MessageSender,
  ): Promise<void> {
    const { permissions } = this.#deps;
    switch (message.kind) {
      case 'frame': {
        const parsed = parseRelayToWorker(message.text);
        if (!parsed.ok) return;
        this.#deps.onRelayFrame(parsed.frame, (frame) =>
          reply({ kind: 'frame', text: serializeFrame(frame) }),
        );
        return;
      }
      case 'control':
        await this.#deps.controls.apply(message.action, message.sessionId);
        return;
      case 'submit_answer':
        permissions.answer(message.id, message.allow, message.scope);
        return;
      case 'set_mode':
        await permissions.gate.setMode(message.sessionId, message.mode);
        return;
      case 'grant':
        await permissions.grants.add(message.site, message.client);
        return;
      case 'revoke_grant':
        await permissions.grants.revoke(message.site, message.client);
        return;
      case 'stop_all':
        await this.#deps.stopAll();
        return;
      case 'resume_all':
        await this.#deps.resumeAll();
        return;
      case 'no_browser_policy':
        permissions.managed.noPolicyFiles();
        return;
      case 'spare_tab':
        await this.#deps.spareTab.offer(message.targetId, sender, chromeHandoffContext());
        return;
      case 'launch_handoff':
        await takeHandoff(message, sender, {
          where: chromeHandoffContext(),
          noPolicyFiles: () => permissions.managed.noPolicyFiles(),
          applySettings: (settings) => this.onMessage({ kind: 'settings', settings }, reply),
        });
        return;
      case 'forget_pairing':
        await forgetHandedPairing(message.id, chromeHandoffContext());
        return;
      case 'settings': {
        const settings = await saveSettings(message.settings);
        this.#deps.panels.broadcast({ kind: 'settings', settings });
        if (message.settings.sensitiveSites !== undefined) await this.broadcastPermissions();
        await this.#deps.applySettings();
        return;
      }
    }
  }

  /** The launching daemon's hand-off over the debugging pipe (worker/pipeHandoff.ts). */
  pipeHandoff(raw: unknown): Promise<boolean> {
    const { permissions, spareTab } = this.#deps;
    return takePipeHandoff(raw, {
      noPolicyFiles: () => permissions.managed.noPolicyFiles(),
      applySettings: (settings) => this.onMessage({ kind: 'settings', settings }, () => undefined),
      adoptSpareTab: (targetId) => spareTab.adopt(targetId),
    });
  }

  async greet(send: (m: WorkerToPanel) => void): Promise<void> {
    const { permissions, background } = this.#deps;
    send({ kind: 'settings', settings: await loadSettings() });
    send({ kind: 'questions', questions: permissions.questions.all() });
    send({ kind: 'permissions', permissions: await permissions.view() });
    send({ kind: 'activity_all', entries: this.#deps.activity.all() });
    send({ kind: 'sessions', sessions: await this.#deps.sessionViews() });
    if (background.running)
      send({
        kind: 'link',
        state: background.state,
        detail: 'The service worker holds the link.',
      });
  }

  async broadcastPermissions(): Promise<void> {
    const { panels, permissions } = this.#deps;
    if (!panels.connected) return;
    panels.broadcast({ kind: 'permissions', permissions: await permissions.view() });
  }
}
