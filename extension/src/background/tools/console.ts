/** Console area's handler: the tab's console messages (browser_console_messages). */
import { textResult, type ConsoleOutput, type ToolArgs } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { ConsoleEntry } from '../tabStates';
import { untrustedSection } from '../common/text';

const MAX_OUTPUT_CHARS = 50_000;

type Level = NonNullable<ToolArgs<'browser_console_messages'>['level']>;

/** Lower is more severe; a filter shows entries at or below its rank. */
const ENTRY_RANK: Record<ConsoleEntry['level'], number> = {
  error: 0,
  warning: 1,
  info: 2,
  log: 2,
  debug: 3,
};
const FILTER_RANK: Record<Level, number> = { error: 0, warning: 1, info: 2, debug: 3, all: 3 };

/** The newest entries kept in the structured result; the text has its own cap. */
const MAX_STRUCTURED_ENTRIES = 200;

export const consoleMessages: Handler<'browser_console_messages'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const limit = FILTER_RANK[args.level ?? 'info'];
  const { state } = tab;
  // Since the page's last main-frame navigation unless `all`; past what was shown with sinceLastCall.
  const since = args.sinceLastCall === true ? state.consoleShown : 0;
  state.consoleShown = state.consoleSeq;
  const entries = state.console.filter(
    (entry) =>
      entry.seq >= since &&
      (args.all === true || entry.nav === state.consoleNav) &&
      ENTRY_RANK[entry.level] <= limit,
  );
  const data: ConsoleOutput = {
    messages: entries.slice(-MAX_STRUCTURED_ENTRIES).map((e) => ({
      level: e.level,
      text: e.text,
      ...(e.location === undefined ? {} : { location: e.location }),
      timestamp: e.timestamp,
    })),
  };
  if (entries.length === 0)
    return textResult(
      args.sinceLastCall === true ? 'No new console messages.' : 'No console messages.',
      data,
    );
  return textResult(untrustedSection('Console messages', formatEntries(entries)), data);
};

/** Newest entries win when the output is too long: they are the ones an agent is debugging. */
export function formatEntries(entries: readonly ConsoleEntry[]): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (entry === undefined) continue;
    const where = entry.location === undefined ? '' : ` (${entry.location})`;
    const line = `[${entry.level}] ${entry.text}${where}`;
    if (size + line.length > MAX_OUTPUT_CHARS && lines.length > 0) {
      lines.push(`[… ${i + 1} older messages omitted]`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.reverse().join('\n');
}

/** The console area's handlers, by tool name. */
export const consoleHandlers = {
  browser_console_messages: consoleMessages,
} satisfies AreaHandlers;
