import type { Agent, StepOutcome, Target } from '../agents/agent.js';
import { sampleOf, type Sample } from './samples.js';

export interface StepRecord extends Sample {
  step: string;
}

/** An Agent that forwards to another and records every step's time and output size. */
export class RecordingAgent implements Agent {
  readonly kind;
  readonly steps: StepRecord[] = [];
  readonly #inner: Agent;

  constructor(inner: Agent) {
    this.#inner = inner;
    this.kind = inner.kind;
  }

  goto(url: string) {
    return this.#record('navigate', this.#inner.goto(url));
  }
  back() {
    return this.#record('back', this.#inner.back());
  }
  read(options?: { full?: boolean }) {
    return this.#record('snapshot', this.#inner.read(options));
  }
  find(text: string) {
    return this.#record('find', this.#inner.find(text));
  }
  click(target: Target) {
    return this.#record('click', this.#inner.click(target));
  }
  /**
   * A type that presses Enter is its own kind, `submit`: it starts what a click on a submit button
   * starts (the login's new page, the search's request), and the bridge waits for that while the
   * floor's press returns once a navigation commits (speedGuard.ts REPORTED_STEPS). Mixed into
   * `type`, two such steps of six set its median (docs/benchmarks.md, session 28).
   */
  type(target: Target, text: string, options?: { submit?: boolean }) {
    const kind = options?.submit === true ? 'submit' : 'type';
    return this.#record(kind, this.#inner.type(target, text, options));
  }
  select(target: Target, label: string) {
    return this.#record('select', this.#inner.select(target, label));
  }
  evaluate(fn: string) {
    return this.#record('evaluate', this.#inner.evaluate(fn));
  }
  waitForText(text: string) {
    return this.#record('wait_for', this.#inner.waitForText(text));
  }
  screenshot() {
    return this.#record('screenshot', this.#inner.screenshot());
  }
  openTab(url: string) {
    return this.#record('tabs', this.#inner.openTab(url));
  }
  listTabs() {
    return this.#record('tabs', this.#inner.listTabs());
  }
  closeTab() {
    return this.#record('tabs', this.#inner.closeTab());
  }
  consoleMessages() {
    return this.#record('console', this.#inner.consoleMessages());
  }

  async #record(step: string, pending: Promise<StepOutcome>): Promise<StepOutcome> {
    const outcome = await pending;
    this.steps.push({ step, ...sampleOf(outcome) });
    return outcome;
  }
}
