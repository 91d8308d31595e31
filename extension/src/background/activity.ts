import type { RequestFrame, ResponseFrame } from '@browser-agent/protocol';
import type { ActivityEntry } from '../shared/messages';
import { UPLOAD_ORIGIN_PREFIX } from './tools/forms';

const MAX_ENTRIES = 200;
const MAX_ARGS_CHARS = 80;
/** Starts the args of a call that hands files to a page (it has `paths`). */
const FILES_LABEL = 'files: ';

/** Recent tool calls per session, for the panel's live log (kept in the worker, so a reopened panel sees them). */
export class Activity {
  readonly #entries: ActivityEntry[] = [];
  readonly #byId = new Map<string, ActivityEntry>();

  all(): ActivityEntry[] {
    return [...this.#entries];
  }

  started(frame: RequestFrame, client: string): ActivityEntry {
    const entry: ActivityEntry = {
      id: frame.id,
      sessionId: frame.sessionId,
      client,
      tool: frame.action,
      args: shortArgs(frame.params),
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
 * Typed text is not shown: it may be a secret the user would not want on screen. Upload paths
 * are: the user should see which of their files an agent handed to a page.
 */
function shortArgs(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const paths = (params as Record<string, unknown>)['paths'];
  if (Array.isArray(paths)) return `${FILES_LABEL}${paths.map(String).join(', ') || 'none'}`;
  const shown = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      k === 'text' || k === 'value' || k === 'values' || k === 'fields' ? '…' : v,
    ]),
  );
  const json = JSON.stringify(shown);
  return json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS)}…` : json;
}
