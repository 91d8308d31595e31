import {
  deleteRecording,
  recordings,
  stepsOf,
  type RecordedStep,
  type RecordingSummary,
} from '../shared/recordings';
import { timeOfDay } from '../shared/callSentence';
import { el } from './dom';
import { exportVideo } from './recordingExport';

/** Many steps arrive in a burst; the list is read back once they settle. */
const REFRESH_DELAY_MS = 150;

/**
 * What each agent did, step by step: the sentence of each state-changing call and the tab right
 * after it, with a marker where the mouse was pressed. Read from the extension's own storage
 * (shared/recordings.ts); "Export video" makes a WebM here in the panel; "Delete" forgets it.
 */
export class RecordingView {
  readonly #root: HTMLElement;
  /** Object URLs of the pictures shown, released when the list is drawn again. */
  readonly #urls = new Map<string, string[]>();
  readonly #open = new Set<string>();
  /** An export's video stays in place while the list is drawn again around it. */
  readonly #exports = new Map<string, HTMLElement>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(root: HTMLElement) {
    this.#root = root;
  }

  /** A session's recording changed (or the panel just opened): read the list again soon. */
  refresh(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#render(), REFRESH_DELAY_MS);
  }

  async #render(): Promise<void> {
    const list = await recordings().catch(() => []);
    if (list.length === 0) {
      this.#root.replaceChildren(
        el(
          'li',
          { className: 'empty' },
          'Nothing recorded yet. Each action an agent takes shows here with a picture of the page after it.',
        ),
      );
      return;
    }
    const items = await Promise.all(list.map((r) => this.#item(r)));
    this.#root.replaceChildren(...items);
  }

  async #item(r: RecordingSummary): Promise<HTMLLIElement> {
    const steps = el('ol', { className: 'steps' });
    const body = el('div', { className: 'recording-body' });
    const exportButton = el('button', { type: 'button', className: 'export' }, 'Export video');
    const remove = el('button', { type: 'button', className: 'delete' }, 'Delete');
    const output = this.#exports.get(r.sessionId) ?? el('div', { className: 'export-output' });
    this.#exports.set(r.sessionId, output);
    body.append(el('div', { className: 'actions' }, exportButton, remove), output, steps);
    const summary = el(
      'summary',
      {},
      el('strong', {}, r.client),
      ` · ${r.steps} ${r.steps === 1 ? 'step' : 'steps'} · ${timeOfDay(r.first)}–${timeOfDay(r.last)}`,
    );
    const details = el(
      'details',
      { className: 'recording', open: this.#open.has(r.sessionId) },
      summary,
      body,
    );
    details.addEventListener('toggle', () => {
      if (details.open) {
        this.#open.add(r.sessionId);
        void this.#fill(r.sessionId, steps);
      } else this.#open.delete(r.sessionId);
    });
    exportButton.addEventListener('click', () => void this.#export(r, exportButton, output));
    remove.addEventListener('click', () => {
      this.#exports.delete(r.sessionId);
      void deleteRecording(r.sessionId).then(() => this.refresh());
    });
    if (details.open) await this.#fill(r.sessionId, steps);
    const li = el('li', {}, details);
    li.dataset['sessionId'] = r.sessionId;
    return li;
  }

  async #fill(sessionId: string, list: HTMLElement): Promise<void> {
    for (const url of this.#urls.get(sessionId) ?? []) URL.revokeObjectURL(url);
    const urls: string[] = [];
    const steps = await stepsOf(sessionId);
    list.replaceChildren(...steps.map((s) => this.#step(s, urls)));
    this.#urls.set(sessionId, urls);
  }

  #step(s: RecordedStep, urls: string[]): HTMLLIElement {
    const caption = el(
      'figcaption',
      {},
      el('time', {}, timeOfDay(s.at)),
      ' ',
      el('span', { className: 'what' }, s.sentence),
    );
    const figure = el('figure', {});
    if (s.image) {
      const url = URL.createObjectURL(s.image);
      urls.push(url);
      const shot = el(
        'div',
        { className: 'shot' },
        el('img', { src: url, alt: `The page after: ${s.sentence}` }),
      );
      if (s.marker) {
        const marker = el('span', { className: 'marker', title: 'Where the agent clicked' });
        marker.style.left = `${(s.marker.x * 100).toFixed(2)}%`;
        marker.style.top = `${(s.marker.y * 100).toFixed(2)}%`;
        shot.append(marker);
      }
      figure.append(shot);
    }
    figure.append(caption);
    const li = el('li', { className: s.outcome === 'ok' ? 'ok' : 'err' }, figure);
    li.dataset['tool'] = s.tool;
    return li;
  }

  async #export(
    r: RecordingSummary,
    button: HTMLButtonElement,
    output: HTMLElement,
  ): Promise<void> {
    button.disabled = true;
    output.replaceChildren(el('p', { className: 'detail' }, 'Making the video…'));
    try {
      const blob = await exportVideo(await stepsOf(r.sessionId));
      const url = URL.createObjectURL(blob);
      const stamp = new Date(r.first).toISOString().slice(0, 19).replace(/[:T]/g, '-');
      const name = `browser-agent-${r.client.replace(/[^\w.-]+/g, '_')}-${stamp}.webm`;
      output.replaceChildren(
        el('video', { src: url, controls: true, muted: true, className: 'export-video' }),
        el('a', { href: url, download: name, className: 'download' }, `Save ${name}`),
      );
    } catch (err) {
      output.replaceChildren(
        el(
          'p',
          { className: 'detail' },
          `The video could not be made: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    } finally {
      button.disabled = false;
    }
  }
}
