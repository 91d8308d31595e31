import type { CdpClient } from '../cdp';
import type { ConsoleEntry } from '../tabStates';

/** Oldest entries are dropped past this, so a chatty page cannot grow the worker's memory. */
const MAX_CONSOLE_ENTRIES = 1000;

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

/** Feeds a tab's console buffer from Runtime and Log events. */
export function captureConsole(cdp: CdpClient, buffer: ConsoleEntry[]): void {
  const push = (entry: ConsoleEntry): void => {
    buffer.push(entry);
    if (buffer.length > MAX_CONSOLE_ENTRIES) buffer.splice(0, buffer.length - MAX_CONSOLE_ENTRIES);
  };
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
    push({
      level: entry.level === 'verbose' ? 'debug' : entry.level,
      text: entry.text,
      ...(entry.url ? { location: `${entry.url}:${(entry.lineNumber ?? 0) + 1}` } : {}),
      timestamp: entry.timestamp,
    });
  });
}
