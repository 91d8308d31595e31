import { parseArgs } from 'node:util';
import { TOOL_GROUPS, type HelloFrame, type ToolGroup } from '@browser-agent/protocol';
import { checkProjectDir } from '../../shared/projectDir.js';
import { SETTING_FLAG_TYPES, type SettingFlags } from './config.js';
import { parseHttpFlags, type HttpOptions } from '../http/httpOptions.js';

export interface CliOptions {
  launch: HelloFrame['launch'];
  bridgePort: number | undefined;
  /** Opt-in tool groups listed besides core. */
  caps: ToolGroup[];
  /** `--project`: checked, real path. */
  project?: string;
  /** Settings given on the command line; resolved with the config file and env (config.ts). */
  settingFlags: SettingFlags;
  /** Serve MCP over Streamable HTTP instead of stdio (`--port`). */
  http: HttpOptions | undefined;
}

export type CliParse =
  | { kind: 'run'; options: CliOptions }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

export const USAGE = `Usage: browser-agent-mcp [options]

MCP server (stdio) that drives Chromium through the Browser Agent extension.

  --launch                 Start Chromium with the extension loaded (no Chrome setup needed);
                           "browser": {"launch": true} in the --config file does the same
  --headless / --headed    Launch mode: force headless or headed (default: headless when
                           there is no display)
  --executable-path <p>    Launch mode: browser binary (else CHROME_PATH, else the usual paths)
  --proxy-server <url>     Launch mode: proxy for the browser ("http://host:port", "socks5://…")
  --proxy-bypass <list>    Launch mode: hosts that skip the proxy (comma-separated)
  --grant-permissions <l>  Launch mode: permissions every origin has (geolocation,clipboard-read,…)
  --isolated               Launch mode: temporary profile, removed on exit
  --user-data-dir <dir>    Launch mode: profile directory to use
  --project <dir>          The project (when the client gives no MCP roots); with --launch
                           its browser profile is <dir>/.user-session-data-directory
  --bridge-port <n>        Port of the extension relay WebSocket (default 3026)
  --caps <g1,g2>           Also list these tool groups: ${TOOL_GROUPS.filter((g) => g !== 'core').join(', ')}
  --config <file>          JSON settings (docs/configuration.md); flags and env vars win over it
  --viewport <WxH>         Viewport of the agent's tabs (default 1280x720)
  --device <name>          Emulate a device: "iPhone 15", "Pixel 7", "iPad Mini", … (viewport,
                           pixel ratio, touch, user agent)
  --mobile                 Mobile layout and touch on the viewport
  --init-script <files>    JavaScript files run in every page before its own scripts
  --timeout-action <ms>    Input actions give up after this long (default 5000)
  --timeout-navigation <ms> Navigations give up after this long (default 30000)
  --allowed-origins <list> Only these origins (comma-separated; "*.example.com" patterns too)
  --blocked-origins <list> Never these origins (a block beats an allow)
  --block-private-network  Refuse loopback, RFC 1918 and link-local addresses
  --allow-file-urls        Let the agent open file:// URLs (off by default)
  --permission-mode <m>    ask, per-site or autonomous: when the agent asks you before acting
  --output-dir <dir>       Save every screenshot here, with a timestamped name
  --output-max-size <n>    Bytes the screenshots in --output-dir may take; the oldest go first
  --upload-dirs <dirs>     Comma-separated directories uploads may come from (besides roots)
  --storage-state <file>   Load cookies and localStorage from this file (Playwright's
                           storageState format) before the first tool call
  --secrets <file>         dotenv file of secrets: an agent types one by its name, and its
                           value is shown as <secret>NAME</secret> in every result
  --console-level <l>      Report console entries at or above this level in every result:
                           error, warning, info (default) or debug
  --tool-names <set>       Also list tools under another server's names: executeautomation
  --image-responses <m>    "omit": leave images out of results (screenshots still save to
                           --output-dir or their filename); default "allow"
  --save-session           Log every call (arguments, result, time) to session-<time>.md
                           in --output-dir; typed text only where the result echoed it
  --record-steps           Keep a picture of each step for the side panel's recording (on in
                           your own Chrome by the panel's setting, off in launch mode)
  --port <n>               Serve MCP over Streamable HTTP on this port instead of stdio
  --host <h>               With --port: address to bind (default 127.0.0.1)
  --no-token               With --port on loopback: no bearer token (by default clients must
                           send the one the server prints; it is kept in <state dir>/http-token)
  --session-idle <s>       With --port: end a session (closing its tabs) after this many idle
                           seconds, no request open (default 1800)
  --allowed-hosts <list>   With --port: Host names served besides loopback and --host
                           ("name" or "name:port"; "*" turns the Host check off)
  --shared-browser-context With --port: every HTTP/SSE client drives the same session and tabs
  --help, --version

       browser-agent-mcp profiles list
       browser-agent-mcp profiles prune --older-than <30d> [--dry-run]
                           List, or remove, project browser profiles unused that long
       browser-agent-mcp pairings list
       browser-agent-mcp pairings revoke <id>
                           List the browsers paired with this computer's bridge, or revoke one
`;

/** Headless unless a display is there to show a window on. */
export function defaultHeadless(env: NodeJS.ProcessEnv): boolean {
  if (process.platform !== 'linux') return false;
  return !env['DISPLAY'] && !env['WAYLAND_DISPLAY'];
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliParse {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        launch: { type: 'boolean' },
        headless: { type: 'boolean' },
        headed: { type: 'boolean' },
        'executable-path': { type: 'string' },
        isolated: { type: 'boolean' },
        'user-data-dir': { type: 'string' },
        'bridge-port': { type: 'string' },
        caps: { type: 'string' },
        project: { type: 'string' },
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'no-token': { type: 'boolean' },
        ...SETTING_FLAG_TYPES,
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (values.headless && values.headed)
    return { kind: 'error', message: '--headless and --headed contradict each other.' };
  let bridgePort: number | undefined;
  if (values['bridge-port'] !== undefined) {
    bridgePort = Number(values['bridge-port']);
    if (!Number.isInteger(bridgePort) || bridgePort < 1 || bridgePort > 65535) {
      return {
        kind: 'error',
        message: `--bridge-port must be a port number (1-65535), got "${values['bridge-port']}".`,
      };
    }
  }
  const caps = parseCaps(values.caps);
  if (typeof caps === 'string') return { kind: 'error', message: caps };
  let project: { project?: string } = {};
  if (values.project !== undefined) {
    const check = checkProjectDir(values.project);
    if (!check.ok) return { kind: 'error', message: `--project: ${check.message} ${check.hint}` };
    project = { project: check.dir };
  }
  const http = parseHttpFlags(values.port, values.host, values['no-token']);
  if (typeof http === 'string') return { kind: 'error', message: http };
  const httpOnly = (['allowed-hosts', 'shared-browser-context'] as const).find(
    (flag) => (values as Record<string, unknown>)[flag] !== undefined,
  );
  if (http === undefined && httpOnly !== undefined)
    return { kind: 'error', message: `--${httpOnly} only applies with --port.` };
  const settingFlags: SettingFlags = {
    config: values.config,
    headless: values.headless ? true : values.headed ? false : undefined,
    executablePath: values['executable-path'],
    isolated: values.isolated,
    userDataDir: values['user-data-dir'],
    values,
  };
  // Without --launch, the launch flags wait for the config file: its browser.launch may turn
  // launch mode on, and resolveSettings refuses them if nothing does.
  if (!values.launch) {
    return {
      kind: 'run',
      options: { launch: undefined, bridgePort, caps, settingFlags, http, ...project },
    };
  }
  const headless = values.headless ? true : values.headed ? false : defaultHeadless(env);
  return {
    kind: 'run',
    options: {
      bridgePort,
      caps,
      ...project,
      settingFlags,
      http,
      launch: {
        headless,
        isolated: values.isolated ?? false,
        ...(values['executable-path'] !== undefined
          ? { executablePath: values['executable-path'] }
          : {}),
        ...(values['user-data-dir'] !== undefined ? { userDataDir: values['user-data-dir'] } : {}),
      },
    },
  };
}

/** The groups named by --caps, or what is wrong with the list. */
function parseCaps(raw: string | undefined): ToolGroup[] | string {
  if (raw === undefined) return [];
  const caps: ToolGroup[] = [];
  for (const name of raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const group = TOOL_GROUPS.find((g) => g === name);
    if (group === undefined) {
      return `--caps: unknown group "${name}"; known: ${TOOL_GROUPS.join(', ')}.`;
    }
    if (!caps.includes(group)) caps.push(group);
  }
  return caps;
}
