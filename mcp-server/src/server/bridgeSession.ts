/**
 * One MCP session wired to one bridge session: an McpServer whose tools call the daemon through
 * their own DaemonClient. Stdio runs one of these; the HTTP transport runs one per MCP session.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from '../shared/logger.js';
import { statePaths } from '../shared/paths.js';
import { sessionSettingsOf, type Settings } from './config.js';
import { ApprovalElicitation } from './approvalElicitation.js';
import { DaemonClient } from './daemonClient.js';
import { createMcpServer } from './mcpServer.js';
import { fileRoots, projectFromRoots } from './projectRoots.js';
import { ProjectSession } from './projectSession.js';
import { projectAwareCaller } from './projectCaller.js';
import type { TraceWriter } from './traceWriter.js';
import type { ToolGroup } from '@browser-agent/protocol';

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

export function openBridgeSession(options: BridgeSessionOptions): BridgeSession {
  const { settings } = options;
  const project = new ProjectSession({
    launch: settings.launch,
    cliProject: options.cliProject,
    userPaths: statePaths(),
    log: options.log,
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
    onEvent: (frame) => elicitation.onEvent(frame),
  });
  const uploadRoots = async (): Promise<string[]> => [
    ...(await fileRoots(server.server)),
    ...(project.project === undefined ? [] : [project.project]),
    ...settings.uploadDirs,
  ];
  const server = createMcpServer(projectAwareCaller(project, daemon), {
    caps: options.caps,
    settings: { ...settings, uploadRoots },
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
  );
  server.server.oninitialized = () => {
    const client = server.server.getClientVersion() ?? { name: 'MCP client', version: '?' };
    daemon.setClient({ name: client.name, version: client.version });
    void projectFromRoots(server.server).then((root) => {
      // In launch mode with no project yet, the first call's projectPath may still pick one.
      // In launch mode the browser starts with the first tool call, never on initialize: a
      // client with several projects open would pay ~300 MB of Chromium for each, used or not.
      if (project.initialize(root) && settings.launch === undefined) daemon.warmUp();
    });
  };
  return {
    server,
    async close() {
      await daemon.close();
      await server.close();
    },
  };
}
