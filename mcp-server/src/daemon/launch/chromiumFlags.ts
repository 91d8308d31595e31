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

/**
 * Browser UI that Chromium preloads at its start, headless too: the omnibox's two WebUI popups
 * (chrome://omnibox-popup.top-chrome/, one of them for AI Mode), in a renderer of their own. On
 * 2 cores Chromium 156 spent 1,330 ms of CPU in its first 3 s with them and 580 ms without, and a
 * launched browser's first call waited for that (#26 item 3: 870-1,012 ms, then 666-719 ms).
 * Nobody types in a launched browser's omnibox before the first call; headed, it falls back to
 * its native popup. Playwright disables only `AimEnabled`, which leaves both popups loading.
 */
export const UNUSED_UI_FEATURES: readonly string[] = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

const DISABLE = '--disable-features=';
const ENABLE = '--enable-features=';

function featureList(args: readonly string[], prefix: string): string[] {
  return args
    .filter((a) => a.startsWith(prefix))
    .flatMap((a) => a.slice(prefix.length).split(','))
    .map((f) => f.trim())
    .filter((f) => f !== '');
}

/**
 * `args` with `features` disabled too. Chromium reads only the last `--disable-features`, so
 * the ones `args` already hold (a config's launchOptions.args) are merged into one flag rather
 * than overridden; a feature `args` enables stays enabled.
 */
export function withDisabledFeatures(
  args: readonly string[],
  features: readonly string[],
): string[] {
  const enabled = new Set(featureList(args, ENABLE));
  const disabled = [
    ...new Set([...featureList(args, DISABLE), ...features.filter((f) => !enabled.has(f))]),
  ];
  const rest = args.filter((a) => !a.startsWith(DISABLE));
  return disabled.length === 0 ? rest : [...rest, `${DISABLE}${disabled.join(',')}`];
}

/**
 * The command line both kinds of launched browser start with, before the debugging pipe: the
 * profile, `leading` (the extension to load, for launch mode), the quiet, window, machine and
 * automation flags, then the config's `args`, with the unused UI's features disabled (merged
 * into the args' own `--disable-features`). launchCommand and the isolated host browser.
 */
export function launchedBrowserFlags(options: {
  profile: string;
  headless: boolean;
  args: readonly string[];
  leading?: readonly string[];
}): string[] {
  return withDisabledFeatures(
    [
      `--user-data-dir=${options.profile}`,
      ...(options.leading ?? []),
      ...QUIET_FLAGS,
      WINDOW_SIZE_FLAG,
      ...(options.headless ? ['--headless=new'] : []),
      ...machineFlags(),
      ...AUTOMATION_HIDDEN_FLAGS,
      ...options.args,
    ],
    UNUSED_UI_FEATURES,
  );
}
