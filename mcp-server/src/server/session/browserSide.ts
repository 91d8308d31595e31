/**
 * The browser side of a bridge session: its project, its daemon connection and the tool caller,
 * without the MCP server over it. Light on purpose: the CLI opens it before the MCP SDK loads,
 * so a route known from the command line starts the daemon (and its browser ahead) in the
 * server's first lines instead of after the handshake (#26 item 3; cli.ts).
 */
import type { Logger } from '../../shared/logger.js';
import { statePaths } from '../../shared/paths.js';
import { sessionSettingsOf, type Settings } from '../settings/config.js';
import { DaemonClient } from './daemonClient.js';
import { ProjectSession } from './projectSession.js';
import { projectAwareCaller } from './projectCaller.js';
import { storageStateAtStart } from '../steps/storageStateFiles.js';
import type { ToolCaller } from '../response/toolResponse.js';
import type { TraceWriter } from '../outputFiles/traceWriter.js';
import type { FrameOf, ToolGroup } from '@browser-agent/protocol';

export interface BridgeSessionOptions {
  settings: Settings;
  caps: readonly ToolGroup[];
  /** `--project`, already checked. */
  cliProject: string | undefined;
  log: Logger;
  trace: TraceWriter | undefined;
  /** Only for a single stdio session: HTTP sessions sharing one key would take each other over. */
  sessionKey: string | undefined;
}

/** The browser side of a session: its project, its daemon connection and the tool caller. */
export interface BrowserSide {
  project: ProjectSession;
  daemon: DaemonClient;
  caller: ToolCaller;
  /** Set by the first MCP session to initialize: later ones keep the first one's project. */
  initialized: boolean;
  /** Each MCP session over this side hears the extension's events (approval questions). */
  eventListeners: Set<(frame: FrameOf<'event'>) => void>;
}

export function openBrowserSide(options: BridgeSessionOptions): BrowserSide {
  const { settings } = options;
  const eventListeners = new Set<(frame: FrameOf<'event'>) => void>();
  const project = new ProjectSession({
    launch: settings.launch,
    cliProject: options.cliProject,
    userPaths: statePaths(),
    log: options.log,
    sessionKey: options.sessionKey,
  });
  const daemon = new DaemonClient({
    route: () => project.route(),
    onBrowserInUse: (why) => project.useOwnBrowser(why),
    log: options.log,
    trace: options.trace,
    sessionKey: options.sessionKey,
    policy: settings.policy,
    settings: sessionSettingsOf(settings),
    transactions: settings.transactions,
    inProcess: process.env['BROWSER_AGENT_NO_DAEMON'] === '1',
    launchAhead: settings.launchAhead,
    onEvent: (frame) => {
      for (const listener of eventListeners) listener(frame);
    },
  });
  return {
    project,
    daemon,
    caller: projectAwareCaller(project, storageStateAtStart(daemon, settings.storageState)),
    initialized: false,
    eventListeners,
  };
}

/**
 * Starts this side's daemon now, before the MCP handshake, when the command line and the
 * environment alone fix which daemon and browser it uses: no launch mode (the user's own
 * browser), or a launch whose profile does not follow the project (--user-data-dir,
 * --isolated). A headless browser of its own starts with it, handed to the daemon
 * (daemonReach.ts, daemon/launch/browserHandover.ts). The handshake then costs the first call
 * nothing: the daemon and the browser start once the server's Node has booted (~70-90 ms on a
 * 2-core machine), where they used to wait for the SDK, the handshake and the roots (~150-210 ms
 * more). When the project decides the profile, nothing starts before the client's roots name
 * it: a guess would make a profile in a directory no one named.
 */
export function startBeforeHandshake(side: BrowserSide): boolean {
  if (!side.project.routeKnown()) return false;
  side.daemon.startDaemonAhead();
  return true;
}
