/**
 * What the in-page outline builder (pageScript.ts) and the worker exchange. The page answers with
 * JSON text in this shape, compact because a big page has thousands of elements.
 */

/** A piece of text, or an element the outline shows. */
export type WireNode = string | WireElement;

export interface WireElement {
  /** Role. */
  r: string;
  /** Accessible name, when it has one. */
  n?: string;
  /** The element's id in its page world: present when it gets a ref (or owns a frame). */
  i?: number;
  /** States in the order they are shown, e.g. "checked", "level=2". */
  s?: string[];
  /** Value (a field's text, a slider's position). */
  v?: string;
  /** Set when the value is a secret and left out (password, card number, one-time code). */
  h?: 1;
  /** A link's URL. */
  u?: string;
  /** Its cursor is a pointer, or it has an inline click handler: a custom control. */
  p?: 1;
  /** It owns a child frame, whose outline the worker hangs under it. */
  f?: 1;
  c?: WireNode[];
}

/** Role policy handed to the page, from roles.ts. */
export interface PageConfig {
  containerRoles: string[];
  fieldRoles: string[];
  actionRoles: string[];
  readRoles: string[];
  /** Autocomplete tokens of secret fields, as a regex source. */
  secretAutocomplete: string;
  /** Names (name or id) of text fields that hold passwords, as a regex source. */
  secretFieldName: string;
  /** The DOM events of the main-world click-listener hook (recorders/clickListeners.ts). */
  clickListenerEvents: { request: string; item: string };
}

/** How one element is known: what check() answers for a ref. */
export type ElementCheck =
  | { state: 'gone' }
  | { state: 'hidden'; role: string; name: string }
  | { state: 'shown'; role: string; name: string };

/**
 * An element's check and what a tool's first page-side step on it returned: the step runs only
 * when the check shows the element the agent saw (shown, same role and name), so a check that
 * passes in the worker means it ran; no value means it did not, or threw.
 */
export interface CheckedStep {
  check: ElementCheck;
  value?: unknown;
}

/** The page when an action's quiet check ended (PageModel.whenQuiet). */
export interface QuietLook {
  /** The frame's outline as JSON text of WireNode[], when asked for. */
  outline?: string | undefined;
  title: string;
  url: string;
}

/** One match of a selector or a role+name locator. */
export interface WireMatch {
  i: number;
  r: string;
  n: string;
}

export type QueryAnswer = { error: string } | { matches: WireMatch[] };

/** A frame, and the debugger session (tab or out-of-process iframe) that reaches it. */
export interface FrameAddress {
  readonly sessionId: string | undefined;
  readonly frameId: string;
}

/** A frame's world as it is now: where refs made in it point. */
export interface WorldAddress extends FrameAddress {
  readonly contextId: number;
}
