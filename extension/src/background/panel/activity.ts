import type { RequestFrame, ResponseFrame } from '@browser-agent/protocol';
import type { ActivityEntry } from '../../shared/messages';
import { UPLOAD_ORIGIN_PREFIX } from '../common/constants';

const MAX_ENTRIES = 200;
const MAX_ARGS_CHARS = 80;
const MAX_DETAILS_CHARS = 2_000;
const MAX_SUMMARY_CHARS = 160;
/** Starts the args of a call that hands files to a page (it has `paths`). */
const FILES_LABEL = 'files: ';
/** What typed text and chosen values read as in the arguments the panel shows. */
const HIDDEN = '(hidden)';
/** Argument keys that carry what the agent typed or chose; their values are never shown raw. */
const TYPED_KEYS = new Set(['text', 'value', 'values', 'fields']);

/** Recent tool calls per session, for the panel's live log (kept in the worker, so a reopened panel sees them). */
export class Activity {
  readonly #entries: ActivityEntry[] = [];
  readonly #byId = new Map<string, ActivityEntry>();

  all(): ActivityEntry[] {
    return [...this.#entries];
  }

  /** The session's call running now (the newest one started and not finished). */
  running(sessionId: string): ActivityEntry | undefined {
    return this.#entries.findLast((e) => e.sessionId === sessionId && e.outcome === undefined);
  }

  started(frame: RequestFrame, client: string): ActivityEntry {
    const entry: ActivityEntry = {
      id: frame.id,
      sessionId: frame.sessionId,
      client,
      tool: frame.action,
      args: shortArgs(frame.params),
      details: detailsOf(frame.params),
      host: undefined,
      summary: undefined,
      startedAt: Date.now(),
      durationMs: undefined,
      outcome: undefined,
    };
    this.#entries.push(entry);
    this.#byId.set(entry.id, entry);
    while (this.#entries.length > MAX_ENTRIES) {
      const dropped = this.#entries.shift();
      if (dropped) this.#byId.delete(dropped.id);
    }
    return entry;
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

/** Arguments with typed text and values hidden, long strings cut; paths stay (see shortArgs). */
function hideTyped(value: unknown, key?: string): unknown {
  if (key !== undefined && TYPED_KEYS.has(key)) {
    // A form's fields keep their targets; only what was typed or chosen is hidden.
    if (key === 'fields' && Array.isArray(value))
      return (value as unknown[]).map((f) =>
        typeof f === 'object' && f !== null
          ? Object.fromEntries(
              Object.entries(f).map(([k, v]) => [k, k === 'value' || k === 'values' ? HIDDEN : v]),
            )
          : HIDDEN,
      );
    return HIDDEN;
  }
  if (Array.isArray(value)) return value.map((v) => hideTyped(v));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideTyped(v, k)]));
  return value;
}

function detailsOf(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const json = JSON.stringify(hideTyped(params), null, 1);
  return json.length > MAX_DETAILS_CHARS ? `${json.slice(0, MAX_DETAILS_CHARS)}…` : json;
}

/**
 * Typed text is not shown: it may be a secret the user would not want on screen. Upload paths
 * are: the user should see which of their files an agent handed to a page.
 */
function shortArgs(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const paths = (params as Record<string, unknown>)['paths'];
  if (Array.isArray(paths)) return `${FILES_LABEL}${paths.map(String).join(', ') || 'none'}`;
  const json = JSON.stringify(hideTyped(params));
  return json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS)}…` : json;
}
