/**
 * Per-tab state: what the recorders keep about each tab between calls (console, dialogs,
 * network, child frames, refs) and the tab handle the handlers act on. It is the one owner of
 * per-tab memory: a room that keeps something per tab adds a field here, saying who writes it,
 * rather than a module-level WeakMap keyed by the tab's state (several rooms had one).
 */
import type { CdpClient } from './cdp';
import type { WorldAddress } from './page/wire';

export interface ConsoleEntry {
  level: 'error' | 'warning' | 'info' | 'debug' | 'log';
  text: string;
  /** url:line of where it was logged, when known. */
  location?: string;
  timestamp: number;
  /** The tab's main-frame navigation it was logged in (TabState.consoleNav at the time). */
  nav: number;
  /** Rising per tab, so "new since" survives the buffer dropping its oldest entries. */
  seq: number;
}

/** Per-tab ref table: refs are handed out once per element and reused across snapshots. */
export interface RefEntry {
  ref: string;
  /** The page world of the element's frame (see page/world.ts), and its id there. */
  world: WorldAddress;
  localId: number;
  /** The CDP child session of the out-of-process iframe the node lives in; undefined for the tab's own. */
  sessionId?: string;
  /** Role and name seen when the ref was last shown; a mismatch later means STALE_REF. */
  role: string;
  name: string;
  /** Snapshot generation the entry was last seen in. */
  generation: number;
}

/** A ref resolved for an action: its entry plus the element's DOM node id in its target. */
export type ResolvedEntry = RefEntry & { backendNodeId: number };

/** Where an out-of-process iframe's target hangs: the session and frame that hold its owner. */
export interface FrameParent {
  sessionId: string | undefined;
  frameId: string | undefined;
}

/** A JavaScript dialog the page opened and nobody handled yet. */
export interface OpenDialog {
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  defaultPrompt: string;
}

/** One request the tab made, as browser_network_requests lists it. */
export interface NetworkEntry {
  /** 1-based number in this page's log (browser_network_request's `index`). */
  index: number;
  id: string;
  url: string;
  method: string;
  resourceType: string;
  status: number | undefined;
  statusText: string;
  mimeType: string;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  hasPostData: boolean;
  failure: string | undefined;
  finished: boolean;
  startedAt: number;
  /** Body of a Fetch/XHR response, read in the browser before the page got it (responseBodies.ts). */
  body?: string;
  /** The request body as the request event carried it: a navigation's is gone once it commits. */
  postData?: string;
  /** The browser asked for it, not the page (its favicon): no page work waits on it. */
  browsersOwn?: true;
}

/** One rule of browser_route, as routing/routes.ts applies it. */
export interface RouteRule {
  /** As the agent gave it (browser_route_list, browser_unroute). */
  pattern: string;
  matcher: RegExp;
  status?: number | undefined;
  body?: string | undefined;
  contentType?: string | undefined;
  addHeaders?: Record<string, string> | undefined;
  removeHeaders?: string[] | undefined;
}

/** A file chooser the page opened and Chrome handed to us (recorders/fileChoosers.ts). */
export interface OpenFileChooser {
  /** The <input type=file> that opened it. */
  backendNodeId: number;
  mode: 'selectSingle' | 'selectMultiple';
  /** The debugger session the input lives in (undefined: the tab's own). */
  sessionId: string | undefined;
}

/** A download the tab started (recorders/downloads.ts). */
export interface Download {
  guid: string;
  file: string;
  state: 'inProgress' | 'completed' | 'canceled';
  reported: boolean;
  /** When Page.downloadWillBegin came (Date.now()). */
  seenAt: number;
}

/** A mouse press in the tab's own frame, for the recording's click marker (recording/presses.ts). */
export interface Press {
  /** CSS pixels in the viewport, as Input.dispatchMouseEvent takes them. */
  x: number;
  y: number;
  at: number;
}

/** A point in the tab's top-level viewport, in CSS pixels (clicks, the vision tools' pointer). */
export interface Point {
  x: number;
  y: number;
}

/** The vision tools' mouse (acting/pointer.ts). */
export interface Pointer {
  at: Point;
  /** Bits of the buttons held down, as MouseEvent.buttons has them. */
  buttons: number;
}

export interface TabState {
  /** Ref entries by element (see outline/nodes.ts elementKey). */
  refsByKey: Map<string, RefEntry>;
  /** Out-of-process iframes attached through Target.setAutoAttach: child session → frame id. */
  childFrames: Map<string, string>;
  /** Child session → where its frame's owner element lives (nested iframes attach to a child session). */
  childFrameParents: Map<string, FrameParent>;
  /** Isolated-world context id of each frame's page model, by `${sessionId}/${frameId}`. */
  worlds: Map<string, number>;
  /** The main frame's id when the frames were last listed (outline/frames.ts acrossFrames). */
  mainFrameId: string | undefined;
  /** The context id, by the same key, of each frame world the page model was installed in. */
  modelWorlds: Map<string, number>;
  /**
   * Set while the tab's session has an origin policy: enables the guard in a child target's
   * session (an out-of-process iframe) while it is still paused, before its first request.
   */
  guardChild: ((sessionId: string) => Promise<void>) | undefined;
  refsByRef: Map<string, RefEntry>;
  nextRef: number;
  generation: number;
  console: ConsoleEntry[];
  /** How many console entries browser_console_messages has already shown. */
  consoleShown: number;
  /** Main-frame navigations seen (recorders/consoleCapture.ts); browser_console_messages shows the last one's. */
  consoleNav: number;
  /** The seq the next console entry gets. */
  consoleSeq: number;
  /** Entries below this seq have been reported in a call's response (the console events). */
  consoleReported: number;
  dialog: OpenDialog | undefined;
  network: NetworkEntry[];
  /** The index the next request gets; the log starts again at 1 when the page navigates. */
  networkNext: number;
  /** The outline lines the agent saw last (snapshot or diff), for the next diff. */
  lastOutline: string[] | undefined;
  /**
   * An origin whose documents the extension answers itself in this tab (a storage state restore
   * writes localStorage in an empty page of the origin): the origin guard leaves them alone.
   */
  servedOrigin?: string | undefined;
  /**
   * Dialogs announced while another was still open, oldest first: dialogs queue, and a close
   * ends the oldest. Written by recorders/dialogs.ts.
   */
  dialogsWaiting: OpenDialog[];
  /**
   * The open dialog was answered before its close event came; that event is then spent.
   * Written by recorders/dialogs.ts.
   */
  dialogCloseAhead: boolean;
  /** The file chooser waiting for files. Written by recorders/fileChoosers.ts. */
  fileChooser: OpenFileChooser | undefined;
  /** Downloads started since the debugger attached (the last 100). Written by recorders/downloads.ts. */
  downloads: Download[];
  /** The agent's routes, oldest first. Written by routing/routes.ts (browser_route, browser_unroute). */
  routes: RouteRule[];
  /**
   * The tab's own connection (the attach hook's, not a call's wrapper of it), so a handler can
   * tell whether the origin guard answers the tab's documents. Written by routing/routes.ts.
   */
  connection: CdpClient | undefined;
  /** The renderer crashed since the last main-frame navigation. Written by recovery/crashWatch.ts. */
  crashed: boolean;
  /** The latest mouse press in the tab's own frame. Written by recording/presses.ts. */
  lastPress: Press | undefined;
  /** Where the vision tools' pointer is and what it holds; undefined before its first use. Written by acting/pointer.ts. */
  pointer: Pointer | undefined;
  /**
   * The screencast that keeps the tab drawn was started at the latest attach (it ends with the
   * debugger; each attach starts it again). Written by loading/keepRunning.ts.
   */
  drawn: boolean;
  /**
   * Values typed into secret fields, hidden by value in request and response bodies. Written
   * by recorders/requestSecrets.ts.
   */
  typedSecrets: string[];
}

/** One of the session's tabs, attached through chrome.debugger. */
export interface TabHandle {
  readonly tabId: number;
  /** The call's client: its commands fail once the call is cancelled or times out. */
  readonly cdp: CdpClient;
  readonly state: TabState;
  /**
   * The same tab's client, not bound to the call: for the clean-up an aborted call still owes
   * the tab (stopping a load it started). Absent in unit tests' fakes (cdp is used then).
   */
  readonly control?: CdpClient | undefined;
}

/**
 * Called once per tab right after the debugger attaches (and again after a worker restart), so
 * per-tab recorders (console, dialogs, network) see events between tool calls too.
 */
export type AttachHook = (tab: TabHandle) => void | Promise<void>;

/** A tab's memory before anything has happened in it. */
export function newTabState(): TabState {
  return {
    refsByKey: new Map(),
    childFrames: new Map(),
    childFrameParents: new Map(),
    worlds: new Map(),
    modelWorlds: new Map(),
    mainFrameId: undefined,
    guardChild: undefined,
    refsByRef: new Map(),
    nextRef: 1,
    generation: 0,
    console: [],
    consoleShown: 0,
    consoleNav: 0,
    consoleSeq: 0,
    consoleReported: 0,
    dialog: undefined,
    network: [],
    networkNext: 1,
    lastOutline: undefined,
    dialogsWaiting: [],
    dialogCloseAhead: false,
    fileChooser: undefined,
    downloads: [],
    routes: [],
    connection: undefined,
    crashed: false,
    lastPress: undefined,
    pointer: undefined,
    drawn: false,
    typedSecrets: [],
  };
}

/** Per-tab memory (refs, console) of this service-worker instance. */
export class TabStates {
  readonly #states = new Map<number, TabState>();

  get(tabId: number): TabState {
    let s = this.#states.get(tabId);
    if (!s) {
      s = newTabState();
      this.#states.set(tabId, s);
    }
    return s;
  }

  /** The tab's state if an agent's call ever made one; no state is made for other tabs. */
  peek(tabId: number): TabState | undefined {
    return this.#states.get(tabId);
  }

  delete(tabId: number): void {
    this.#states.delete(tabId);
  }

  /** What was typed into secret fields in any tab (a popup may show what its opener sent). */
  typedSecrets(): string[] {
    const all = new Set<string>();
    for (const state of this.#states.values()) for (const v of state.typedSecrets) all.add(v);
    return [...all];
  }
}
