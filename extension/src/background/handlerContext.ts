/** What a tool handler may do: the narrow interface handlers get, so tests can fake it. */
import type {
  ClientInfo,
  OriginPolicy,
  SessionSettings,
  ToolArgs,
  ToolName,
  ToolResult,
} from '@browser-agent/protocol';
import type { TabHandle } from './tabStates';

export interface TabSummary {
  index: number;
  tabId: number;
  url: string;
  title: string;
  current: boolean;
}

/** The session's current tab as Chrome named it when a call arrived alone (callRunner.ts). */
export interface ArrivalTab {
  readonly tabId: number;
  readonly url: Promise<string | undefined>;
}

/** What a tool handler may do; only what handlers use, so tests can fake it. */
export interface HandlerContext {
  readonly sessionId: string;
  readonly client: ClientInfo;
  /** Viewport, timeouts and file:// access the session's server asked for. */
  readonly settings?: SessionSettings | undefined;
  /** The session's origin policy: what cookie and storage tools may read or write too. */
  readonly policy?: OriginPolicy | undefined;
  /**
   * Aborted when the call's caller cancels it or its deadline passes (dispatcher.ts); the
   * reason is a BridgeError. CDP commands of this context's tabs then fail, and waits that take
   * it (timing.ts) end early. Absent in unit tests' fake contexts.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * The URL Chrome gave for tab `tabId` as this call arrived, when it was the session's current
   * tab and the call arrived with no other call of its session queued or running
   * (worker/callRunner.ts): nothing of the session's had acted on the tab since. Taken once per
   * call; undefined afterwards (a batch's later steps ask Chrome again), for another tab, or
   * when the call came behind another.
   */
  arrivalUrl?(tabId: number): Promise<string | undefined> | undefined;
  /** The session's current tab; throws NO_TAB when the session has none. */
  currentTab(): Promise<TabHandle>;
  /** The current tab, opening a blank one first when the session has none. */
  ensureTab(): Promise<TabHandle>;
  listTabs(): Promise<TabSummary[]>;
  /** Opens a tab; with background it neither takes focus nor becomes the session's current tab. */
  newTab(url?: string, options?: { background?: boolean }): Promise<TabHandle>;
  selectTab(index: number): Promise<TabHandle>;
  /**
   * One of this session's tabs by Chrome tab id; NOT_OWNER when another session or the user owns
   * it, TAB_CLOSED when it is gone.
   */
  tabById(tabId: number): Promise<TabHandle>;
  /** Closes the tab at index, or the current tab (worker/closeTab.ts). */
  closeTab(index?: number): Promise<ClosedTab>;
}

export interface ClosedTab {
  /** The session's tabs left open. */
  left: TabSummary[];
  /** Its page asked before leaving (beforeunload), and closing answered "leave". */
  leaveAsked: boolean;
}

export type Handler<N extends ToolName> = (
  args: ToolArgs<N>,
  ctx: HandlerContext,
) => Promise<ToolResult>;
export type HandlerRegistry = { [N in ToolName]: Handler<N> };
/** One area's handlers (tools/<area>.ts): some of the tools, each by its name. */
export type AreaHandlers = { [N in ToolName]?: Handler<N> };

/**
 * Every tab of the session, attached: for tools that set something on all of them (network
 * conditions, routes). Here rather than in one handler file, which the other would then import.
 */
export async function sessionTabs(ctx: HandlerContext): Promise<TabHandle[]> {
  const tabs = await ctx.listTabs();
  return Promise.all(tabs.map((t) => ctx.tabById(t.tabId)));
}
