/**
 * One MCP session wired to one bridge session: an McpServer whose tools call the daemon through
 * their own DaemonClient. Stdio runs one of these; the HTTP transport runs one per MCP session,
 * or, with `--shared-browser-context`, one McpServer per MCP session over a single shared
 * browser side (one DaemonClient: one bridge session, its tabs and tab group).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from '../../shared/logger.js';
import { statePaths } from '../../shared/paths.js';
import { sessionSettingsOf, type Settings } from '../settings/config.js';
import { redactText } from '../settings/secrets.js';
import { ApprovalElicitation } from '../call/approvalElicitation.js';
import { DaemonClient } from './daemonClient.js';
import { createMcpServer } from '../call/mcpServer.js';
import type { ToolCaller } from '../response/toolResponse.js';
import { fileRoots, projectFromRoots } from './projectRoots.js';
import { ProjectSession } from './projectSession.js';
import { projectAwareCaller } from './projectCaller.js';
import { storageStateAtStart } from '../steps/storageStateFiles.js';
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

export interface BridgeSession {
  readonly server: McpServer;
  close(): Promise<void>;
}

/** The browser side of a session: its project, its daemon connection and the tool caller. */
interface BrowserSide {
  project: ProjectSession;
  daemon: DaemonClient;
  caller: ToolCaller;
  /** Set by the first MCP session to initialize: later ones keep the first one's project. */
  initialized: boolean;
  /** Each MCP session over this side hears the extension's events (approval questions). */
  eventListeners: Set<(frame: FrameOf<'event'>) => void>;
}

function openBrowserSide(options: BridgeSessionOptions): BrowserSide {
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

/** An McpServer over a browser side; closing it leaves the browser side to its owner. */
function mcpServerOver(side: BrowserSide, options: BridgeSessionOptions): McpServer {
  const { settings } = options;
  const { project, daemon } = side;
  const uploadRoots = async (): Promise<string[]> => [
    ...(await fileRoots(server.server)),
    ...(project.project === undefined ? [] : [project.project]),
    ...settings.uploadDirs,
  ];
  const clientRoot = async (): Promise<string | undefined> => (await fileRoots(server.server))[0];
  const server = createMcpServer(side.caller, {
    caps: options.caps,
    settings: { ...settings, uploadRoots, clientRoot },
    // projectPath only picks a profile: not when --isolated or --user-data-dir decides it.
    projectPath:
      settings.launch !== undefined &&
      !settings.launch.isolated &&
      settings.launch.userDataDir === undefined &&
      options.cliProject === undefined,
  });
  // The extension's approval questions, asked through the client too when it can elicit.
  const elicitation = new ApprovalElicitation(
    server.server,
    (id, allow, scope) => daemon.sendApprovalAnswer(id, allow, scope),
    options.log,
    (text) => redactText(text, settings.secrets),
  );
  const listener = (frame: FrameOf<'event'>): void => elicitation.onEvent(frame);
  side.eventListeners.add(listener);
  server.server.onclose = () => side.eventListeners.delete(listener);
  server.server.oninitialized = () => {
    if (side.initialized) return;
    side.initialized = true;
    const client = server.server.getClientVersion() ?? { name: 'MCP client', version: '?' };
    daemon.setClient({ name: client.name, version: client.version });
    void projectFromRoots(server.server).then((root) => {
      // In launch mode with no project yet, the first call's projectPath may still pick one.
      // A headless launch's browser starts with the daemon (launchAhead, on by default): the
      // first call finds it up; a client with several projects open pays ~300 MB of Chromium
      // for each for a minute if unused (then the idle daemon closes it). --no-launch-ahead, or
      // a headed browser, starts it with the first tool call.
      project.initialize(root);
      if (!project.routeKnown()) return;
      if (settings.launch === undefined) daemon.warmUp();
      // The daemon (~50 MB, gone after its idle minute) starts now: the first call then waits
      // at most for the browser.
      else daemon.startDaemonAhead();
    });
  };
  return server;
}

export function openBridgeSession(options: BridgeSessionOptions): BridgeSession {
  const side = openBrowserSide(options);
  const server = mcpServerOver(side, options);
  return {
    server,
    async close() {
      await side.daemon.close();
      await server.close();
    },
  };
}

/**
 * `--shared-browser-context`: every MCP session opened through it drives the same bridge session
 * (same tabs, same refs). A session's close ends only its McpServer; `close()` ends the browser
 * side too.
 */
export interface SharedBridge {
  open(): BridgeSession;
  close(): Promise<void>;
}

export function openSharedBridge(options: BridgeSessionOptions): SharedBridge {
  const side = openBrowserSide(options);
  return {
    open() {
      const server = mcpServerOver(side, options);
      return { server, close: () => server.close() };
    },
    close: () => side.daemon.close(),
  };
}
