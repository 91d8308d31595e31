import { findContract, type ToolResult } from '@browser-agent/protocol';
import { callSentence } from '../../shared/callSentence';
import type { ActivityEntry } from '../../shared/messages';
import { addStep } from '../../shared/recordings';
import type { HandlerContext } from '../handlerContext';
import { pressDuring } from './presses';

/** Small enough to keep many (about 30–60 KB each), large enough to read the page. */
const SHOT_MAX_DIMENSION = 800;

/** What the recorder needs of the worker: a context on the session's tab and the screenshot tool. */
export interface RecorderDeps {
  /** The session's context for the capture, its commands failing once `signal` aborts. */
  contextFor(sessionId: string, signal: AbortSignal): Promise<HandlerContext | undefined>;
  /** browser_take_screenshot through the dispatcher: secret fields masked, like the agent's. */
  screenshot(
    ctx: HandlerContext,
    args: { type: 'jpeg'; maxDimension: number },
  ): Promise<ToolResult>;
  /** A step was kept; panels reload that session's recording. */
  changed(sessionId: string): void;
  /** Whether a call of the session is queued or running: a capture then yields to it. */
  busy(sessionId: string): boolean;
}

/** Capturing never holds a session for long: a tab Chrome does not draw gets no picture. */
export const CAPTURE_LIMIT_MS = 3_000;

/**
 * Keeps one step per state-changing call (annotations.readOnlyHint false): its sentence, and the
 * tab as it looks right after the call with a marker where the mouse was pressed. Read-only calls
 * change nothing worth a picture. Steps are kept beside the session's calls, never in their turn:
 * an agent's next call waited for each capture (issue #26, 2.2× slower suite), so a capture is
 * skipped when a call of the session is already waiting, and one that arrives meanwhile runs
 * alongside it.
 */
export class Recorder {
  readonly #deps: RecorderDeps;
  /** Per session, the steps being kept, so they are stored in the order of their calls. */
  readonly #chains = new Map<string, Promise<void>>();

  constructor(deps: RecorderDeps) {
    this.#deps = deps;
  }

  /** Keeps the finished call's step after the steps before it; the caller never waits. */
  keep(entry: ActivityEntry): void {
    const { sessionId } = entry;
    const tail = (this.#chains.get(sessionId) ?? Promise.resolve())
      .then(() => this.step(entry))
      .catch(() => undefined);
    this.#chains.set(sessionId, tail);
    void tail.then(() => {
      if (this.#chains.get(sessionId) === tail) this.#chains.delete(sessionId);
    });
  }

  /** Whether a finished call is a step of the recording. */
  records(entry: ActivityEntry): boolean {
    const contract = findContract(entry.tool);
    return contract !== undefined && !contract.annotations.readOnlyHint;
  }

  async step(entry: ActivityEntry): Promise<void> {
    // The step is kept without a picture rather than hold a call that is waiting.
    const capture = entry.outcome === 'ok' && !this.#deps.busy(entry.sessionId);
    const shot = capture ? await this.#capture(entry) : undefined;
    await addStep({
      sessionId: entry.sessionId,
      client: entry.client,
      at: entry.startedAt,
      tool: entry.tool,
      sentence: callSentence(entry),
      outcome: entry.outcome ?? 'ok',
      host: entry.host,
      image: shot?.image,
      marker: shot?.marker,
    });
    this.#deps.changed(entry.sessionId);
  }

  async #capture(
    entry: ActivityEntry,
  ): Promise<{ image: Blob; marker: { x: number; y: number } | undefined } | undefined> {
    const signal = AbortSignal.timeout(CAPTURE_LIMIT_MS);
    try {
      const ctx = await this.#deps.contextFor(entry.sessionId, signal);
      if (!ctx) return undefined;
      const tab = await ctx.currentTab();
      // Chrome draws no frame while a page's alert is open; the step waits for no picture.
      if (tab.state.dialog !== undefined) return undefined;
      const result = await this.#deps.screenshot(ctx, {
        type: 'jpeg',
        maxDimension: SHOT_MAX_DIMENSION,
      });
      const part = result.content.find((p) => p.type === 'image');
      if (part?.type !== 'image') return undefined;
      const press = pressDuring(
        tab.state,
        entry.startedAt,
        entry.startedAt + (entry.durationMs ?? Date.now() - entry.startedAt),
      );
      let marker: { x: number; y: number } | undefined;
      if (press) {
        const { cssVisualViewport: v } = await tab.cdp.send('Page.getLayoutMetrics');
        if (v.clientWidth > 0 && v.clientHeight > 0)
          marker = { x: press.x / v.clientWidth, y: press.y / v.clientHeight };
      }
      const bytes = Uint8Array.from(atob(part.data), (c) => c.charCodeAt(0));
      return { image: new Blob([bytes], { type: part.mimeType }), marker };
    } catch {
      // No tab, a closed tab, a dialog in the way, or no frame in time: the step has no picture.
      return undefined;
    }
  }
}
