import type { BenchClient, CallOutcome } from '../mcp/benchClient.js';
import { parseRefs, refKey, type RefTable } from '../mcp/snapshotRefs.js';
import type { Agent, StepOutcome, Target } from './agent.js';

/** The contract's ceiling, far above any fixture page's outline, so `full` reads are never cut. */
const FULL_SNAPSHOT_MAX_CHARS = 500_000;

/**
 * The agent as an LLM drives the bridge: it acts on refs from its latest snapshot, so a step
 * that acts must come after a read() that showed the element.
 */
export class BridgeAgent implements Agent {
  readonly kind = 'bridge';
  readonly #client: BenchClient;
  #refs: RefTable = new Map();

  constructor(client: BenchClient) {
    this.#client = client;
  }

  goto(url: string): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_navigate', { url }));
  }

  back(): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_navigate_back', {}));
  }

  async read(options: { full?: boolean } = {}): Promise<StepOutcome> {
    const args = options.full === true ? { maxChars: FULL_SNAPSHOT_MAX_CHARS } : {};
    const outcome = await this.#client.callOk('browser_snapshot', args);
    this.#refs = parseRefs(outcome.text);
    return outcome;
  }

  async find(text: string): Promise<StepOutcome> {
    const outcome = await this.#client.callOk('browser_find', { text });
    // Hits carry refs of the same outline, so they join the latest snapshot's.
    this.#refs = new Map([...parseRefs(outcome.text), ...this.#refs]);
    return outcome;
  }

  click(target: Target): Promise<StepOutcome> {
    const ref = this.#ref(target);
    return this.#ok(this.#client.callOk('browser_click', { ref }));
  }

  type(target: Target, text: string, options: { submit?: boolean } = {}): Promise<StepOutcome> {
    const ref = this.#ref(target);
    return this.#ok(this.#client.callOk('browser_type', { ref, text, ...options }));
  }

  select(target: Target, label: string): Promise<StepOutcome> {
    const ref = this.#ref(target);
    return this.#ok(this.#client.callOk('browser_select_option', { ref, values: [label] }));
  }

  evaluate(fn: string): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_evaluate', { function: fn }));
  }

  waitForText(text: string): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_wait_for', { text }));
  }

  screenshot(): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_take_screenshot', {}));
  }

  openTab(url: string): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_tabs', { action: 'new', url }));
  }

  listTabs(): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_tabs', { action: 'list' }));
  }

  closeTab(): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_tabs', { action: 'close' }));
  }

  consoleMessages(): Promise<StepOutcome> {
    return this.#ok(this.#client.callOk('browser_console_messages', {}));
  }

  #ref(target: Target): string {
    const ref = this.#refs.get(refKey(target.role, target.name));
    if (ref === undefined)
      throw new Error(`The latest snapshot shows no ${describe(target)}; read() the page first.`);
    return ref;
  }

  async #ok(call: Promise<CallOutcome>): Promise<StepOutcome> {
    const { ms, text, imageChars } = await call;
    return { ms, text, imageChars };
  }
}

function describe(target: Target): string {
  return `${target.role} "${target.name}"`;
}
