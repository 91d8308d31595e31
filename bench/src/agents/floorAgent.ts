import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import type { Agent, StepOutcome, Target } from './agent.js';

/**
 * The floor: the same steps done by playwright-core straight over CDP, with no MCP, no daemon,
 * no extension. Reads are Playwright's own AI-mode aria snapshot, the closest equivalent of a
 * bridge snapshot; actions resolve the element by role and name, as the bridge resolves a ref.
 */
export class FloorAgent implements Agent {
  readonly kind = 'floor';
  readonly #context: BrowserContext;
  /** Open tabs, the current one last. */
  readonly #tabs: Page[] = [];
  readonly #console = new WeakMap<Page, string[]>();

  private constructor(context: BrowserContext) {
    this.#context = context;
  }

  static async create(browser: Browser): Promise<FloorAgent> {
    // No viewport emulation, like the bridge's tabs: the window size decides.
    const agent = new FloorAgent(await browser.newContext({ viewport: null }));
    agent.#adopt(await agent.#context.newPage());
    return agent;
  }

  async close(): Promise<void> {
    await this.#context.close();
  }

  goto(url: string): Promise<StepOutcome> {
    return timed(async () => {
      await this.#page.goto(url, { waitUntil: 'load' });
      return `${this.#page.url()} ${await this.#page.title()}`;
    });
  }

  back(): Promise<StepOutcome> {
    return timed(async () => {
      await this.#page.goBack({ waitUntil: 'load' });
      return this.#page.url();
    });
  }

  read(): Promise<StepOutcome> {
    return timed(() => this.#page.ariaSnapshot({ mode: 'ai' }));
  }

  find(text: string): Promise<StepOutcome> {
    return timed(() => this.#page.getByText(text).first().ariaSnapshot({ mode: 'ai' }));
  }

  click(target: Target): Promise<StepOutcome> {
    return timed(async () => {
      await this.#locate(target).click();
      return `clicked ${target.name}`;
    });
  }

  type(target: Target, text: string, options: { submit?: boolean } = {}): Promise<StepOutcome> {
    return timed(async () => {
      const field = this.#locate(target);
      await field.fill(text);
      if (options.submit === true) await field.press('Enter');
      return `typed into ${target.name}`;
    });
  }

  select(target: Target, label: string): Promise<StepOutcome> {
    return timed(async () => {
      await this.#locate(target).selectOption({ label });
      return `selected ${label} in ${target.name}`;
    });
  }

  evaluate(fn: string): Promise<StepOutcome> {
    return timed(async () => {
      const value: unknown = await this.#page.evaluate(`(${fn}\n)()`);
      return JSON.stringify(value) ?? 'undefined';
    });
  }

  waitForText(text: string): Promise<StepOutcome> {
    return timed(async () => {
      await this.#page.getByText(text).first().waitFor({ state: 'visible' });
      return `found ${text}`;
    });
  }

  async screenshot(): Promise<StepOutcome> {
    const started = performance.now();
    const png = await this.screenshotBase64();
    const ms = performance.now() - started;
    return { ms, text: '', imageChars: png.length };
  }

  /** The viewport as base64 PNG, as an MCP image part carries it (the floor over MCP sends it). */
  async screenshotBase64(): Promise<string> {
    const png = await this.#page.screenshot({ type: 'png' });
    return png.toString('base64');
  }

  openTab(url: string): Promise<StepOutcome> {
    return timed(async () => {
      const page = await this.#context.newPage();
      this.#adopt(page);
      await page.goto(url, { waitUntil: 'load' });
      return page.url();
    });
  }

  /** Titles and URLs, as the bridge lists them: a title is read from each page. */
  listTabs(): Promise<StepOutcome> {
    return timed(async () => {
      const lines = await Promise.all(this.#tabs.map(async (p) => `${await p.title()} ${p.url()}`));
      return lines.join('\n');
    });
  }

  closeTab(): Promise<StepOutcome> {
    return timed(async () => {
      const page = this.#tabs.pop();
      if (page === undefined || this.#tabs.length === 0)
        throw new Error('Cannot close the last tab.');
      await page.close();
      return `closed; current ${this.#page.url()}`;
    });
  }

  consoleMessages(): Promise<StepOutcome> {
    return timed(async () => Promise.resolve((this.#console.get(this.#page) ?? []).join('\n')));
  }

  /**
   * The raw data behind any accessibility snapshot: one `Accessibility.getFullAXTree` over a CDP
   * session, with no formatting. A reference for how fast a snapshot could be on this page.
   */
  async rawAxTree(): Promise<StepOutcome> {
    const session = await this.#context.newCDPSession(this.#page);
    try {
      const started = performance.now();
      const tree = await session.send('Accessibility.getFullAXTree');
      const ms = performance.now() - started;
      return { ms, text: `${tree.nodes.length} nodes`, imageChars: 0 };
    } finally {
      await session.detach();
    }
  }

  get #page(): Page {
    const page = this.#tabs.at(-1);
    if (page === undefined) throw new Error('The floor agent has no tab.');
    return page;
  }

  #locate(target: Target) {
    return this.#page.getByRole(target.role, { name: target.name, exact: true });
  }

  #adopt(page: Page): void {
    const messages: string[] = [];
    this.#console.set(page, messages);
    page.on('console', (m: ConsoleMessage) => messages.push(`[${m.type()}] ${m.text()}`));
    this.#tabs.push(page);
  }
}

async function timed(step: () => Promise<string>): Promise<StepOutcome> {
  const started = performance.now();
  const text = await step();
  return { ms: performance.now() - started, text, imageChars: 0 };
}
