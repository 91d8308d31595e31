/**
 * Launch mode's browser options from Playwright MCP's vocabulary: `--proxy-server` /
 * `--proxy-bypass`, `browser.launchOptions.args`, and `--grant-permissions` (Playwright's
 * permission names, granted by the daemon through Browser.grantPermissions on the launch pipe,
 * the one place a browser-level CDP call is available: chrome.debugger only reaches page
 * targets). Checked here so a bad value stops the server at start with what to write instead.
 */
import { ConfigError } from './configFile.js';

/**
 * Flags the launcher sets itself (profile, extension, the debugging pipe), and the ones that would
 * let any local process drive the browser without pairing.
 */
const RESERVED_FLAGS = [
  '--user-data-dir',
  '--load-extension',
  '--disable-extensions-except',
  '--remote-debugging-pipe',
  '--remote-debugging-port',
  '--remote-debugging-address',
  '--headless',
] as const;

/** Playwright's permission names → Chrome DevTools Protocol PermissionType. */
export const PERMISSION_NAMES: Readonly<Record<string, string>> = {
  geolocation: 'geolocation',
  notifications: 'notifications',
  camera: 'videoCapture',
  microphone: 'audioCapture',
  'clipboard-read': 'clipboardReadWrite',
  'clipboard-write': 'clipboardSanitizedWrite',
  midi: 'midi',
  'midi-sysex': 'midiSysex',
  'background-sync': 'backgroundSync',
  accelerometer: 'sensors',
  gyroscope: 'sensors',
  magnetometer: 'sensors',
  'ambient-light-sensor': 'sensors',
  'payment-handler': 'paymentHandler',
  'storage-access': 'storageAccess',
  'local-fonts': 'localFonts',
};

export interface LaunchExtras {
  args: string[];
  grantPermissions: string[];
}

export function launchExtras(input: {
  args?: readonly string[] | undefined;
  proxy?: { server: string; bypass?: string | undefined } | undefined;
  grantPermissions?: readonly string[] | undefined;
}): LaunchExtras {
  const args = [...(input.args ?? [])];
  for (const arg of args) {
    const name = arg.split('=')[0] ?? arg;
    if (!arg.startsWith('--')) {
      throw new ConfigError(
        `browser.launchOptions.args: "${arg}" is not a flag; write Chromium flags like "--lang=de".`,
      );
    }
    if ((RESERVED_FLAGS as readonly string[]).includes(name)) {
      throw new ConfigError(
        `browser.launchOptions.args: ${name} is set by the launcher itself (or would let any local process drive the browser); leave it out${name === '--headless' ? ' and use --headless' : name === '--user-data-dir' ? ' and use --user-data-dir' : ''}.`,
      );
    }
  }
  if (input.proxy !== undefined) {
    args.push(`--proxy-server=${input.proxy.server}`);
    if (input.proxy.bypass !== undefined) args.push(`--proxy-bypass-list=${input.proxy.bypass}`);
  }
  const grantPermissions: string[] = [];
  for (const name of input.grantPermissions ?? []) {
    const cdp = PERMISSION_NAMES[name];
    if (cdp === undefined) {
      throw new ConfigError(
        `--grant-permissions: unknown permission "${name}"; known: ${Object.keys(PERMISSION_NAMES).join(', ')}.`,
      );
    }
    if (!grantPermissions.includes(cdp)) grantPermissions.push(cdp);
  }
  return { args, grantPermissions };
}
