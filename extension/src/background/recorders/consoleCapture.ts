import type { ConsoleEvents } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import type { ConsoleEntry, TabHandle, TabState } from '../tabStates';

/** Oldest entries are dropped past this, so a chatty page cannot grow the worker's memory. */
const MAX_CONSOLE_ENTRIES = 1000;
/** New entries reported in one response at most (the newest); the rest are only counted. */
const MAX_REPORTED_ENTRIES = 200;
/** Longest entry text carried in a response's console events; the tool shows it whole. */
const MAX_REPORTED_CHARS = 2000;

const LEVELS: Record<string, ConsoleEntry['level']> = {
  error: 'error',
  assert: 'error',
  warning: 'warning',
  warn: 'warning',
  info: 'info',
  log: 'log',
  debug: 'debug',
  verbose: 'debug',
  trace: 'debug',
  dir: 'log',
  table: 'log',
};

/**
 * Feeds a tab's console buffer from Runtime and Log events. A main-frame navigation starts a
 * new page's console (TabState.consoleNav); the older entries stay for `all`.
 */
export function captureConsole(cdp: CdpClient, state: TabState): void {
  const push = (entry: Omit<ConsoleEntry, 'nav' | 'seq'>): void => {
    const buffer = state.console;
    buffer.push({ ...entry, nav: state.consoleNav, seq: state.consoleSeq });
    state.consoleSeq += 1;
    if (buffer.length > MAX_CONSOLE_ENTRIES) buffer.splice(0, buffer.length - MAX_CONSOLE_ENTRIES);
  };
  cdp.on('Page.frameNavigated', (e, sessionId) => {
    if (sessionId !== undefined || e.frame.parentId !== undefined) return;
    state.consoleNav += 1;
  });
  cdp.on('Runtime.consoleAPICalled', (e, sessionId) => {
    if (sessionId !== undefined) return;
    const text = e.args
      .map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? a.type)))
      .join(' ');
    const frame = e.stackTrace?.callFrames[0];
    push({
      level: LEVELS[e.type] ?? 'log',
      text,
      ...(frame ? { location: `${frame.url}:${frame.lineNumber + 1}` } : {}),
      timestamp: e.timestamp,
    });
  });
  cdp.on('Runtime.exceptionThrown', (e, sessionId) => {
    if (sessionId !== undefined) return;
    const d = e.exceptionDetails;
    push({
      level: 'error',
      text: d.exception?.description ?? d.text,
      ...(d.url ? { location: `${d.url}:${d.lineNumber + 1}` } : {}),
      timestamp: e.timestamp,
    });
  });
  cdp.on('Log.entryAdded', (e, sessionId) => {
    if (sessionId !== undefined) return;
    const { entry } = e;
    if (isBrowserFavicon(entry)) return;
    push({
      level: entry.level === 'verbose' ? 'debug' : entry.level,
      text: entry.text,
      ...(entry.url ? { location: `${entry.url}:${(entry.lineNumber ?? 0) + 1}` } : {}),
      timestamp: entry.timestamp,
    });
  });
}

/**
 * The tab's console entries not yet reported in a response, which the MCP server turns into log
 * files and a brief note (ToolResult `serverData.consoleEvents`); undefined when there are none.
 */
export function newConsoleEvents(tab: TabHandle): ConsoleEvents | undefined {
  const { state } = tab;
  const fresh = state.console.filter((e) => e.seq >= state.consoleReported);
  state.consoleReported = state.consoleSeq;
  if (fresh.length === 0) return undefined;
  const kept = fresh.slice(-MAX_REPORTED_ENTRIES);
  const events: ConsoleEvents = {
    tabId: tab.tabId,
    entries: kept.map((e) => ({
      nav: e.nav,
      level: e.level,
      text: e.text.length > MAX_REPORTED_CHARS ? `${e.text.slice(0, MAX_REPORTED_CHARS)}…` : e.text,
      ...(e.location === undefined ? {} : { location: e.location }),
    })),
    omitted: fresh.length - kept.length,
  };
  return events;
}

/**
 * The browser's own request for /favicon.ico (no page asked for it) failing is not the page's
 * error: without this, most first navigates to a dev server report a console error (#27).
 */
function isBrowserFavicon(entry: { source: string; url?: string }): boolean {
  if (entry.source !== 'network' || entry.url === undefined) return false;
  try {
    return new URL(entry.url).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}
