import type { ClientInfo } from '@browser-agent/protocol';

/** Messages between the content script and the service worker; they never leave the extension. */
export type ContentMessage = { kind: 'overlay_query' } | { kind: 'take_over' };
export type OverlayState = { kind: 'overlay'; client: string | null };

/** Name of the one runtime port between a panel (side panel or relay tab) and the worker. */
export const PANEL_PORT_NAME = 'panel';

export type LinkState = 'connecting' | 'connected' | 'disconnected';
export type SessionState = 'active' | 'paused' | 'revoked';

export interface SessionView {
  sessionId: string;
  client: ClientInfo;
  project: string | undefined;
  state: SessionState;
  tabs: Array<{ tabId: number; title: string; url: string }>;
  lastActivity: number | undefined;
  busy: boolean;
  color: string;
  transaction: {
    open: boolean;
    commits: number;
    rollbacks: number;
    lastRollbackMs: number | undefined;
    checkpoints: number;
    /** Size of the open checkpoint, else of the newest kept one. */
    checkpointBytes: number | undefined;
    resumes: number;
    lastResumeMs: number | undefined;
  };
}

export interface ActivityEntry {
  id: string;
  sessionId: string;
  client: string;
  tool: string;
  args: string;
  startedAt: number;
  durationMs: number | undefined;
  /** 'ok', an error code, or undefined while the call runs. */
  outcome: string | undefined;
}

export interface Settings {
  /** The service worker holds the bridge link, so agents keep working with the panel closed. */
  keepWorkingWhenPanelClosed: boolean;
  /** What happens to an agent's tabs when its session ends. */
  onSessionEnd: 'close' | 'release';
  /** The daemon's port, remembered for the worker-held link. */
  bridgePort: number;
}

export type ControlAction = 'pause' | 'resume' | 'revoke' | 'focus' | 'handover';

/** Panel → worker. Frames travel as their JSON text, validated by the worker like the daemon's. */
export type PanelToWorker =
  | { kind: 'frame'; text: string }
  | { kind: 'control'; action: ControlAction; sessionId: string }
  | { kind: 'settings'; settings: Partial<Settings> };

/** Worker → panel. */
export type WorkerToPanel =
  | { kind: 'frame'; text: string }
  | { kind: 'sessions'; sessions: SessionView[] }
  | { kind: 'activity'; entry: ActivityEntry }
  | { kind: 'activity_all'; entries: ActivityEntry[] }
  | { kind: 'link'; state: LinkState; detail: string }
  | { kind: 'settings'; settings: Settings };
