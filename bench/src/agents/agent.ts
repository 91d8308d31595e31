/**
 * What an agent does to a page, independent of how: the bridge (MCP tools), the floor
 * (playwright-core calling Chromium directly) and the floor over MCP all implement it, so every
 * scenario is written once and run the same way on each.
 */

/** The ARIA roles the scenarios act on (each one also a role Playwright's getByRole takes). */
export const ROLES = ['button', 'link', 'textbox', 'searchbox', 'checkbox', 'combobox'] as const;
export type Role = (typeof ROLES)[number];

/** An element as an agent names it: its accessible role and name. */
export interface Target {
  role: Role;
  name: string;
}

export interface StepOutcome {
  /** Wall time of the step itself, timed as close to the wire as each side allows. */
  ms: number;
  /** What the agent got back to read (for the bridge, the tool's text). */
  text: string;
  /** Base64 characters of images returned. */
  imageChars: number;
}

/**
 * `mcp-floor` is the floor's work behind a minimal MCP server over stdio: the cheapest an MCP
 * browser tool can be, so the bridge's cost splits into what any MCP server pays and its own.
 */
export type AgentKind = 'bridge' | 'floor' | 'mcp-floor';

export interface Agent {
  readonly kind: AgentKind;
  goto(url: string): Promise<StepOutcome>;
  back(): Promise<StepOutcome>;
  /**
   * Reads the page: a snapshot for the bridge, an aria snapshot for the floor. `full` asks the
   * bridge for the whole outline instead of its default size cap (the floor never caps).
   */
  read(options?: { full?: boolean }): Promise<StepOutcome>;
  /** Finds elements by their text on a page too long to read whole. */
  find(text: string): Promise<StepOutcome>;
  click(target: Target): Promise<StepOutcome>;
  type(target: Target, text: string, options?: { submit?: boolean }): Promise<StepOutcome>;
  /** Chooses the option labelled `label` of a `<select>`. */
  select(target: Target, label: string): Promise<StepOutcome>;
  /** Runs `() => …` source in the page; the outcome's text carries the JSON result. */
  evaluate(fn: string): Promise<StepOutcome>;
  waitForText(text: string): Promise<StepOutcome>;
  screenshot(): Promise<StepOutcome>;
  openTab(url: string): Promise<StepOutcome>;
  listTabs(): Promise<StepOutcome>;
  /** Closes the current tab. */
  closeTab(): Promise<StepOutcome>;
  consoleMessages(): Promise<StepOutcome>;
}
