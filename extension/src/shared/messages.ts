import type { ClientInfo } from '@browser-agent/protocol';

/** Messages between the content scripts and the service worker; they never leave the extension. */
export type ContentMessage =
  | { kind: 'overlay_query' }
  | { kind: 'take_over' }
  /** A submit guard that starts while an agent call runs asks whether to hold submits. */
  | { kind: 'guard_query' }
  /** The guard held the submit of a form with a secret field (see submitGuard.ts). */
  | { kind: 'submit_held'; id: number; targetOrigin: string; fields: SecretFieldKind[] };
export type OverlayState = { kind: 'overlay'; client: string | null };

export type SecretFieldKind = 'password' | 'payment card' | 'one-time code';

/** Worker → submit guard (every frame of a tab, or the frame that held a submit). */
export type GuardMessage =
  /** While an agent's call runs on the tab; `forMs` bounds it should the worker die. */
  | { kind: 'guard_arm'; armed: boolean; forMs: number }
  | { kind: 'guard_release'; id: number; allow: boolean }
  /** Answered (with the kinds) only by frames with a form that has a secret field. */
  | { kind: 'guard_probe' };

/**
 * "Let <client> submit this form?" (`submit`), or "Let <client> run a script on this page?"
 * (`script`: a browser_evaluate on a page with such a form), shown in the side panel until
 * answered or expired.
 */
export interface SubmitQuestion {
  id: string;
  kind: 'submit' | 'script';
  client: string;
  tabTitle: string;
  pageUrl: string;
  targetOrigin: string;
  fields: SecretFieldKind[];
  expiresAt: number;
}

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
  /** The session's current tab as Chrome shows it now (title, URL for the origin and favicon). */
  page: { tabId: number; title: string; url: string } | undefined;
  /** The call the agent is running now, if any. */
  running: { tool: string; startedAt: number } | undefined;
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
  /**
   * The call's arguments for "details", with typed text and values replaced (the sentence shows
   * typed text only where the field is not a secret, see secretKind.ts).
   */
  details: string;
  /** The host of the session's page when the call started. */
  host: string | undefined;
  /** The handler's own first sentence ("Clicked button "Sign in"."), when the call succeeded. */
  summary: string | undefined;
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
  /** Ask in the panel before an agent submits a form with a password, card or one-time-code field. */
  askBeforeSecretSubmit: boolean;
  /** Keep a screenshot after each state-changing call, for the panel's recording view. */
  recordSteps: boolean;
}

export type ControlAction = 'pause' | 'resume' | 'revoke' | 'focus' | 'handover';

/** Panel → worker. Frames travel as their JSON text, validated by the worker like the daemon's. */
export type PanelToWorker =
  | { kind: 'frame'; text: string }
  | { kind: 'control'; action: ControlAction; sessionId: string }
  | { kind: 'settings'; settings: Partial<Settings> }
  | { kind: 'submit_answer'; id: string; allow: boolean }
  /** Pause every session and cancel the calls they have queued or running. */
  | { kind: 'stop_all' };

/** Worker → panel. */
export type WorkerToPanel =
  | { kind: 'frame'; text: string }
  | { kind: 'sessions'; sessions: SessionView[] }
  | { kind: 'activity'; entry: ActivityEntry }
  | { kind: 'activity_all'; entries: ActivityEntry[] }
  | { kind: 'link'; state: LinkState; detail: string }
  | { kind: 'settings'; settings: Settings }
  | { kind: 'questions'; questions: SubmitQuestion[] }
  /** A session's recording got a step (recording/recorder.ts). */
  | { kind: 'recording'; sessionId: string };
