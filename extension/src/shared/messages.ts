import type {
  AdminSites,
  ApprovalScope,
  ClientInfo,
  PermissionMode,
} from '@browser-agent/protocol';

/** Messages between the content scripts and the service worker; they never leave the extension. */
/**
 * The id of the overlay's host element (content/overlay.ts). The settle's DOM-quiet check does
 * not count its coming and going as the page changing: the overlay renders at document_idle,
 * right after DOMContentLoaded, and every navigate waited a 50 ms quiet window for it (#26).
 */
export const OVERLAY_HOST_ID = 'browser-agent-overlay';

export type ContentMessage =
  | { kind: 'overlay_query' }
  | { kind: 'take_over' }
  /** A submit guard that starts while an agent call runs asks whether to hold submits. */
  | { kind: 'guard_query' }
  /**
   * The guard held the submit of a form with a secret field, or a submit or click that looks
   * irreversible (see submitGuard.ts and irreversible.ts).
   */
  | {
      kind: 'submit_held';
      id: number;
      targetOrigin: string;
      fields: SecretFieldKind[];
      /** What it held: a form's submit, or a click on a button or link. */
      action?: 'submit' | 'click';
      /** Why it looks irreversible; empty when only a secret field made it held. */
      irreversible?: IrreversibleKind[];
      /** The button's or link's own words (page-controlled, shown as text only). */
      label?: string;
    }
  /**
   * A value typed into a secret field of a frame of the tab (content/secretTyping.ts): bodies
   * hide it by value (recorders/requestSecrets.ts).
   */
  | { kind: 'secret_typed'; value: string }
  /** Allow / Deny clicked on the tab's overlay (top frame only; see approvals/overlayAnswers.ts). */
  | { kind: 'overlay_answer'; id: string; allow: boolean; scope: ApprovalScope };

/** The "<client> is working in this tab" marker, and the agent's open question on this tab. */
export type OverlayState = {
  kind: 'overlay';
  client: string | null;
  question?: OverlayQuestion | undefined;
};

/** The open question as the tab's overlay shows it, with its countdown and its element's box. */
export interface OverlayQuestion {
  id: string;
  text: string;
  scopes: ApprovalScope[];
  expiresAt: number;
  highlight?: HighlightRect | undefined;
}

/** An element's box in the tab's viewport (CSS pixels), outlined while a question asks about it. */
export interface HighlightRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What an irreversible-looking action would do (content/irreversible.ts decides). */
export type IrreversibleKind =
  | 'buy or pay'
  | 'send a message'
  | 'delete'
  | 'create an account'
  | 'change a password'
  | 'download a file';

export type SecretFieldKind = 'password' | 'payment card' | 'one-time code';

/** Worker → submit guard (every frame of a tab, or the frame that held a submit). */
export type GuardMessage =
  /** While an agent's call runs on the tab; `forMs` bounds it should the worker die. */
  | {
      kind: 'guard_arm';
      armed: boolean;
      forMs: number;
      /** Hold submits of forms with a secret field (askBeforeSecretSubmit). */
      secret?: boolean;
      /** Hold submits and clicks that look irreversible (the permission mode says so). */
      irreversible?: boolean;
    }
  | { kind: 'guard_release'; id: number; allow: boolean }
  /** Answered (with the kinds) only by frames with a form that has a secret field. */
  | { kind: 'guard_probe' }
  /**
   * Answered by the top frame only: whether the browser shows PDFs in its viewer
   * (`navigator.pdfViewerEnabled`, read in the content script's isolated world).
   */
  | { kind: 'pdf_viewer_probe' };

/**
 * A question to the user, shown in the side panel (and on the tab's overlay) until answered or
 * expired; at most one per agent is open at a time.
 * - `submit`: "Let <client> submit this form?" (a form with a secret field);
 * - `script`: "Let <client> run a script on this page?" (browser_evaluate on such a page);
 * - `action`: a state-changing call the permission mode asks about (approvals/permissionGate.ts);
 * - `irreversible`: a held submit or click that looks like buying, sending, deleting...
 */
export interface ApprovalQuestion {
  id: string;
  kind: 'submit' | 'script' | 'action' | 'irreversible';
  sessionId: string;
  client: string;
  tabId: number;
  tabTitle: string;
  pageUrl: string;
  targetOrigin: string;
  fields: SecretFieldKind[];
  /** `action` and `irreversible`: the question in one sentence ("Let X click “Buy” on shop.test?"). */
  text?: string;
  /** Why it is asked ("This agent asks before each action", "bank.test is a sensitive site"). */
  why?: string;
  /** What an Allow may cover; `once` alone when the answer cannot be remembered. */
  scopes: ApprovalScope[];
  expiresAt: number;
  /** Where the element the call acts on is on the tab, outlined by the overlay while it waits. */
  highlight?: HighlightRect;
}
/** The older name, from when every question was about a submit. */
export type SubmitQuestion = ApprovalQuestion;

/** A site an agent (by client name) or every agent (`*`) may act on without being asked. */
export interface SiteGrant {
  /** An origin, e.g. https://shop.test. */
  site: string;
  client: string;
  grantedAt: number;
}

/** The permissions part of the panel: grants, the sensitive list, the admin's locked lists. */
export interface PermissionsView {
  grants: SiteGrant[];
  sensitiveSites: string[];
  /** From the admin file of any connected server, or chrome.storage.managed; read-only here. */
  admin: AdminSites[];
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
  /** Paused by "Stop all agents" (so "Resume all" would resume it), not by its own Pause. */
  stoppedByAll: boolean;
  /** The session's current tab as Chrome shows it now (title, URL for the origin and favicon). */
  page: { tabId: number; title: string; url: string } | undefined;
  /** The call the agent is running now, if any. */
  running: { tool: string; startedAt: number } | undefined;
  /** How this agent is asked before it acts (the panel may change it: `set_mode`). */
  permissionMode: PermissionMode;
  /** Its open question, if any: at most one per agent. Answer with `submit_answer`. */
  pendingQuestion: ApprovalQuestion | undefined;
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
  /** What the call is about when its title alone says too little: `the text "Done"`, `3 s`. */
  subject?: string | undefined;
  /** Not a call: the agent connected or left (tool is empty then). */
  event?: 'connected' | 'left' | undefined;
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
  /** The mode of agents whose config names none (docs/permissions.md). */
  defaultPermissionMode: PermissionMode;
  /** Site patterns where an agent always asks first, whatever its mode (approvals/sensitiveSites.ts). */
  sensitiveSites: string[];
}

/** `dismiss` removes a revoked session's card from the panel (its calls still answer REVOKED). */
export type ControlAction = 'pause' | 'resume' | 'revoke' | 'focus' | 'handover' | 'dismiss';

/** Panel → worker. Frames travel as their JSON text, validated by the worker like the daemon's. */
/** A DevTools target id as Chromium spells it (the `spare_tab` message's). */
export const DEVTOOLS_TARGET_ID = /^[0-9A-F]{32}$/i;

export type PanelToWorker =
  | { kind: 'frame'; text: string }
  | { kind: 'control'; action: ControlAction; sessionId: string }
  | { kind: 'settings'; settings: Partial<Settings> }
  | { kind: 'submit_answer'; id: string; allow: boolean; scope?: ApprovalScope }
  | { kind: 'set_mode'; sessionId: string; mode: PermissionMode }
  | { kind: 'grant'; site: string; client: string }
  | { kind: 'revoke_grant'; site: string; client: string }
  /** Pause every session and cancel the calls they have queued or running. */
  | { kind: 'stop_all' }
  /** Resume the sessions "Stop all agents" paused, and only those. */
  | { kind: 'resume_all' }
  /** A launched browser's relay page: its machine has no browser policy files (bridgePort.ts). */
  | { kind: 'no_browser_policy' }
  /**
   * A launched browser's relay page: the blank tab the browser opened at start, by its DevTools
   * target id, for the first session's first tab (background/worker/spareTab.ts).
   */
  | { kind: 'spare_tab'; targetId: string }
  | LaunchHandoff
  /**
   * The user forgot a pairing on an isolated launch's relay page: its worker, whose pairings
   * live in its own memory, forgets it too (and tells the daemon over the link it holds).
   */
  | { kind: 'forget_pairing'; id: string };

/**
 * An isolated launch's relay page (an incognito context, whose storage is per JS context:
 * shared/storageAreas.ts) hands its own worker what the worker cannot read from storage: the
 * pairing the page adopted from its URL, the bridge's port, and whether the machine has browser
 * policy files. The worker keeps them in its memory and holds the link. Sent when the page
 * connects and again after every worker restart, since a restarted worker has lost its memory.
 * The worker takes it only from an extension page of its own, incognito context
 * (background/worker/launchHandoff.ts checks the sender and the shape).
 */
export interface LaunchHandoff {
  kind: 'launch_handoff';
  /** The daemon's half is in its memory only; null when the page holds no pairing (any more). */
  pairing: { secret: string; label: string } | null;
  bridgePort: number;
  noBrowserPolicy: boolean;
}

/** Worker → panel. */
export type WorkerToPanel =
  | { kind: 'frame'; text: string }
  | { kind: 'sessions'; sessions: SessionView[] }
  | { kind: 'activity'; entry: ActivityEntry }
  | { kind: 'activity_all'; entries: ActivityEntry[] }
  | { kind: 'link'; state: LinkState; detail: string }
  | { kind: 'settings'; settings: Settings }
  | { kind: 'questions'; questions: ApprovalQuestion[] }
  | { kind: 'permissions'; permissions: PermissionsView }
  /** A session's recording got a step (recording/recorder.ts). */
  | { kind: 'recording'; sessionId: string };
