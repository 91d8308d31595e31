import { findContract } from '@browser-agent/protocol';
import type { ActivityEntry } from './messages';
import { errorWords } from './errorWords';

/** Starts the args of a call that hands files to a page (activity.ts). */
const FILES_LABEL = 'files: ';

/** The host of a URL, for "on github.com"; undefined for pages without one (about:blank). */
export function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const { host, protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The tool's title from its contract ("Wait for"), else its name. */
export function toolTitle(tool: string): string {
  return findContract(tool)?.title ?? tool;
}

/**
 * One call as a sentence, the way the live log and the recording show it:
 * `Clicked button "Sign in" on github.com, 84 ms`. The handler's own first sentence when it
 * succeeded (activity.ts), else the tool's title with what it is about ("Wait for the text
 * "Done""); "failed: the element was not found" when it failed (the code stays in the details);
 * "…" while it runs. An agent that connects or leaves reads "connected" / "left".
 */
export function callSentence(entry: ActivityEntry): string {
  if (entry.event !== undefined) return entry.event;
  const what =
    entry.summary ??
    (entry.subject === undefined
      ? toolTitle(entry.tool)
      : `${toolTitle(entry.tool)} ${entry.subject}`);
  const on = entry.host !== undefined && !what.includes(entry.host) ? ` on ${entry.host}` : '';
  const files = entry.args.startsWith(FILES_LABEL) ? ` (${entry.args})` : '';
  if (entry.outcome === undefined) return `${what}${on}${files}…`;
  const ms = `${entry.durationMs ?? 0} ms`;
  if (entry.outcome === 'ok') return `${what}${on}${files}, ${ms}`;
  return `${what}${on}${files} failed: ${errorWords(entry.outcome)}, ${ms}`;
}

/**
 * Made at the first use, not when the module loads: the worker imports this module (for its call
 * sentences) but never shows a time, and building a DateTimeFormat loads the locale's data, the
 * costliest statement of the worker's start (#26.3: 25–120 ms before its first line ran).
 */
let timeOfDayFormat: Intl.DateTimeFormat | undefined;

/** 10:42:07 */
export function timeOfDay(at: number): string {
  timeOfDayFormat ??= new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  return timeOfDayFormat.format(at);
}
