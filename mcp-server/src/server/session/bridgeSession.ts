/**
 * One MCP session wired to one bridge session: an McpServer whose tools call the daemon through
 * their own DaemonClient. Stdio runs one of these; the HTTP transport runs one per MCP session,
 * or, with `--shared-browser-context`, one McpServer per MCP session over a single shared
 * browser side (one DaemonClient: one bridge session, its tabs and tab group).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { redactText } from '../settings/secrets.js';
import { ApprovalElicitation } from '../call/approvalElicitation.js';
import { createMcpServer } from '../call/mcpServer.js';
import type { FrameOf } from '@browser-agent/protocol';
import { fileRoots, projectFromRoots } from './projectRoots.js';
import { openBrowserSide, type BridgeSessionOptions, type BrowserSide } from './browserSide.js';

export type { BridgeSessionOptions } from './browserSide.js';

export interface BridgeSession {
  readonly server: McpServer;
  close(): Promise<void>;
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

/** `side`: the browser side the CLI opened before the SDK loaded (browserSide.ts), if it did. */
export function openBridgeSession(
  options: BridgeSessionOptions,
  side: BrowserSide = openBrowserSide(options),
): BridgeSession {
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
