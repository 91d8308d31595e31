/**
 * The console events every response carries (the current tab's entries new since the last
 * response): with an output directory they go to log files there, one per page and level
 * (`console-<level>-<time>.log`, a new set after each main-frame navigation), and the response
 * names the lines they were written to; without one the response shows the entries at or above
 * the console level, briefly and fenced as page content.
 */
import type { FileHandle } from 'node:fs/promises';
import { BridgeError } from '@browser-agent/protocol';
import {
  CONSOLE_LEVELS,
  oneLine,
  untrustedSection,
  type ConsoleEvents,
  type ConsoleLevel,
} from '@browser-agent/protocol';
import type { ToolResponse } from '../response/toolResponse.js';
import { createOutputFile, fileStamp, shownPath } from './newFile.js';

type Entry = ConsoleEvents['entries'][number];

/** Entries shown in a response without an output directory (the newest); the tool has them all. */
const MAX_SHOWN = 10;
const MAX_SHOWN_CHARS = 300;

/** `log` is shown and filed with `info`, as a console's "Info" filter does. */
function fileLevel(level: Entry['level']): ConsoleLevel {
  return level === 'log' ? 'info' : level;
}

function rank(level: ConsoleLevel): number {
  return CONSOLE_LEVELS.indexOf(level);
}

function fileLine(entry: Entry): string {
  const where = entry.location === undefined ? '' : ` @ ${entry.location}`;
  return `[${entry.level.toUpperCase()}] ${entry.text}${where}`;
}

interface LogFile {
  file: string;
  /** The handle that created it: appends go through it, never by name (a link swapped in later). */
  handle: FileHandle;
  /** Lines written so far. */
  lines: number;
}

export class ConsoleLog {
  readonly #outputDir: string | undefined;
  readonly #level: ConsoleLevel;
  /** By `${tabId}/${nav}/${level}`: the log file of that page and level. */
  readonly #files = new Map<string, LogFile>();
  /** One write at a time, so two calls' entries never interleave in a file. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(outputDir: string | undefined, level: ConsoleLevel = 'info') {
    this.#outputDir = outputDir;
    this.#level = level;
  }

  /** Takes the console events off the response and adds the note that replaces them. */
  async report(response: ToolResponse): Promise<void> {
    const batches = response.take('consoleEvents') ?? [];
    if (batches.length === 0) return;
    const shown = (e: Entry): boolean => rank(fileLevel(e.level)) <= rank(this.#level);
    if (this.#outputDir === undefined) {
      const entries = batches.flatMap((b) => b.entries).filter(shown);
      if (entries.length === 0) return;
      const kept = entries.slice(-MAX_SHOWN);
      const lines = kept.map((e) => {
        const where = e.location === undefined ? '' : ` (${oneLine(e.location, 200)})`;
        return `[${e.level}] ${oneLine(e.text, MAX_SHOWN_CHARS)}${where}`;
      });
      const more =
        entries.length > kept.length
          ? `\n${entries.length - kept.length} more: browser_console_messages`
          : '';
      response.addNote(`${untrustedSection('New console messages', lines.join('\n'))}${more}`);
      return;
    }
    const run = this.#queue.then(() => this.#write(batches, shown));
    this.#queue = run.catch(() => undefined);
    // The action happened: a log that cannot be written is a note on its result, not a failure.
    const notes = await run.catch((err: unknown) => [
      `- Not written to a log file: ${err instanceof BridgeError ? err.message : String(err)}`,
    ]);
    if (notes.length > 0) response.addNote(`### New console messages\n${notes.join('\n')}`);
  }

  async #write(batches: ConsoleEvents[], shown: (e: Entry) => boolean): Promise<string[]> {
    const groups = new Map<string, Entry[]>();
    for (const batch of batches) {
      for (const entry of batch.entries) {
        const key = `${batch.tabId}/${entry.nav}/${fileLevel(entry.level)}`;
        const group = groups.get(key) ?? [];
        group.push(entry);
        groups.set(key, group);
      }
    }
    const notes: string[] = [];
    for (const [key, entries] of groups) {
      const level = key.slice(key.lastIndexOf('/') + 1) as ConsoleLevel;
      const text = `${entries.map(fileLine).join('\n')}\n`;
      const count = text.split('\n').length - 1;
      let log = this.#files.get(key);
      if (log === undefined) {
        const made = await createOutputFile(
          this.#outputDir,
          `console-${level}-${fileStamp()}.log`,
          true,
        );
        log = { ...made, lines: 0 };
        this.#closeOlder(key);
        this.#files.set(key, log);
      }
      await log.handle.appendFile(text);
      const first = log.lines + 1;
      log.lines += count;
      if (!entries.some(shown)) continue;
      const n = entries.length;
      const range = log.lines === first ? `L${first}` : `L${first}-L${log.lines}`;
      notes.push(
        `- ${n} new console ${n === 1 ? 'entry' : 'entries'} in "${shownPath(log.file)}#${range}"`,
      );
    }
    return notes;
  }

  /** A tab's files of earlier pages get no more lines: their handles are closed. */
  #closeOlder(key: string): void {
    const [tab, nav] = key.split('/');
    for (const [other, log] of this.#files) {
      const [otherTab, otherNav] = other.split('/');
      if (otherTab !== tab || Number(otherNav) >= Number(nav)) continue;
      this.#files.delete(other);
      log.handle.close().catch(() => undefined);
    }
  }
}
