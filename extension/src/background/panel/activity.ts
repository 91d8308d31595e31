import {
  findContract,
  replaceTypedArgs,
  type RequestFrame,
  type ResponseFrame,
  type TypedArgsFacts,
} from '@browser-agent/protocol';
import type { ActivityEntry } from '../../shared/messages';
import { UPLOAD_ORIGIN_PREFIX } from '../common/constants';
import { callSubject } from './callSubject';

const MAX_ENTRIES = 200;
const MAX_ARGS_CHARS = 80;
const MAX_DETAILS_CHARS = 2_000;
const MAX_SUMMARY_CHARS = 160;
/** Starts the args of a call that hands files to a page (it has `paths`). */
const FILES_LABEL = 'files: ';
/** What typed text and chosen values read as in the arguments the panel shows. */
const HIDDEN = '(hidden)';

/** Recent tool calls per session, for the panel's live log (kept in the worker, so a reopened panel sees them). */
export class Activity {
  readonly #entries: ActivityEntry[] = [];
  readonly #byId = new Map<string, ActivityEntry>();
  readonly #contractOf: (tool: string) => TypedArgsFacts | undefined;

  /** `contractOf`: where the facts of a tool's arguments come from (the contracts; a test's own). */
  constructor(contractOf: (tool: string) => TypedArgsFacts | undefined = findContract) {
    this.#contractOf = contractOf;
  }

  all(): ActivityEntry[] {
    return [...this.#entries];
  }

  /** The session's call running now (the newest one started and not finished). */
  running(sessionId: string): ActivityEntry | undefined {
    return this.#entries.findLast((e) => e.sessionId === sessionId && e.outcome === undefined);
  }

  started(frame: RequestFrame, client: string): ActivityEntry {
    // What the tool's contract calls typed (typedArgs.ts) is hidden; a form's fields keep their targets.
    const hidden = replaceTypedArgs(
      this.#contractOf(frame.action),
      frame.params,
      () => HIDDEN,
      this.#contractOf,
    );
    const entry: ActivityEntry = {
      id: frame.id,
      sessionId: frame.sessionId,
      client,
      tool: frame.action,
      args: shortArgs(hidden),
      details: detailsOf(hidden),
      host: undefined,
      summary: undefined,
      subject: callSubject(frame.action, frame.params),
      startedAt: Date.now(),
      durationMs: undefined,
      outcome: undefined,
    };
    this.#keep(entry);
    return entry;
  }

  /** A line for an agent that connected or left: "10:42:07 Claude Code connected". */
  sessionEvent(sessionId: string, client: string, event: 'connected' | 'left'): ActivityEntry {
    const at = Date.now();
    const entry: ActivityEntry = {
      id: `${sessionId}:${event}:${at}`,
      sessionId,
      client,
      tool: '',
      args: '',
      details: '',
      host: undefined,
      summary: undefined,
      event,
      startedAt: at,
      durationMs: 0,
      outcome: 'ok',
    };
    this.#keep(entry);
    return entry;
  }

  #keep(entry: ActivityEntry): void {
    this.#entries.push(entry);
    this.#byId.set(entry.id, entry);
    while (this.#entries.length > MAX_ENTRIES) {
      const dropped = this.#entries.shift();
      if (dropped) this.#byId.delete(dropped.id);
    }
  }

  finished(frame: ResponseFrame): ActivityEntry | undefined {
    const entry = this.#byId.get(frame.id);
    if (!entry) return undefined;
    entry.durationMs = Date.now() - entry.startedAt;
    entry.outcome = frame.payload.success ? 'ok' : frame.payload.error.code;
    if (frame.payload.success) entry.summary = firstSentence(frame.payload.data);
    if (entry.args.startsWith(FILES_LABEL) && frame.payload.success) {
      // Which files went to which origin: the user should see this without asking.
      const text = JSON.stringify(frame.payload.data);
      const origin = new RegExp(`${UPLOAD_ORIGIN_PREFIX}([\\w.:/[\\]-]+)`)
        .exec(text)?.[1]
        ?.replace(/\.$/, '');
      if (origin !== undefined) entry.args = `${entry.args} → ${origin}`;
    }
    return entry;
  }
}

/**
 * The handler's own first line when it reads as a sentence ("Clicked button "Sign in"."): the
 * handlers already word what they did, and echo typed text only into fields that are not secret
 * (acting/typing.ts `echo`, by secretKind's rule). Headings, lists and fenced page content are
 * not sentences; the panel then names the tool by its contract's title.
 */
function firstSentence(data: unknown): string | undefined {
  const content = (data as { content?: Array<{ type: string; text?: string }> }).content;
  const text = content?.find((part) => part.type === 'text')?.text;
  // Refs ([e12]) are the agent's handles on elements; they mean nothing to the user.
  const line = (text?.split('\n', 1)[0] ?? '').replace(/ \[e\d+\]/g, '').trim();
  if (!/^[A-Z][a-z]/.test(line) || line.includes('```')) return undefined;
  const cut = line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS)}…` : line;
  return cut.replace(/\.$/, '');
}

function detailsOf(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const json = JSON.stringify(params, null, 1);
  return json.length > MAX_DETAILS_CHARS ? `${json.slice(0, MAX_DETAILS_CHARS)}…` : json;
}

/**
 * Typed text is not shown (the caller hid it): it may be a secret the user would not want on
 * screen. Upload paths are: the user should see which of their files an agent handed to a page.
 */
function shortArgs(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const paths = (params as Record<string, unknown>)['paths'];
  if (Array.isArray(paths)) return `${FILES_LABEL}${paths.map(String).join(', ') || 'none'}`;
  const json = JSON.stringify(params);
  return json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS)}…` : json;
}
