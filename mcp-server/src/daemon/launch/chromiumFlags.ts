/**
 * The Chromium command-line flags the project starts its browsers with, said once: launch mode
 * (chromeLauncher.ts) uses them, and so do the e2e harness and the bench (package export
 * `@browser-agent/mcp-server/chromiumFlags`, through testkit), so what the tests drive is the
 * browser launch mode starts.
 */
import { existsSync } from 'node:fs';

/**
 * No first-run UI, and no background traffic: closed networks (CI, containers) otherwise see a
 * stream of refused connections.
 */
export const QUIET_FLAGS: readonly string[] = [
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch mode's window; the bench's floor uses the same so screenshots compare. */
export const WINDOW_SIZE_FLAG = '--window-size=1280,800';

/** Loads the built extension at `dir` and no other. */
export function extensionFlags(dir: string): string[] {
  return [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`];
}

/** What the machine needs: as root Chromium refuses to run with its sandbox (containers, CI). */
export function machineFlags(): string[] {
  return [
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    // Docker gives /dev/shm 64 MB, which crashes renderers of big pages; use /tmp instead.
    ...(existsSync('/.dockerenv') ? ['--disable-dev-shm-usage'] : []),
  ];
}

/**
 * Launch mode's pages see `navigator.webdriver` false, as in a browser a person started: sites
 * that refuse automated browsers would otherwise refuse the agent (Playwright MCP hides it too).
 */
export const AUTOMATION_HIDDEN_FLAGS: readonly string[] = [
  '--disable-blink-features=AutomationControlled',
];
