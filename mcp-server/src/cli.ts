/**
 * `browser-agent-mcp`: an MCP server on stdio. Stdout carries MCP frames only; logs go to stderr.
 * Exits when stdin closes or on SIGINT/SIGTERM/SIGHUP, leaving only the shared daemon behind.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLogger } from './shared/logger.js';
import { statePaths } from './shared/paths.js';
import { parseCli, USAGE } from './server/cliOptions.js';
import { DaemonClient } from './server/daemonClient.js';
import { TraceWriter } from './server/traceWriter.js';
import { projectFromRoots } from './server/projectRoots.js';
import { policyFromEnv } from './server/policyFromEnv.js';
import { transactionLimitsFromEnv } from './server/transactionLimitsFromEnv.js';
import { createMcpServer, SERVER_VERSION } from './server/mcpServer.js';
import { ProjectSession } from './server/projectSession.js';
import { projectAwareCaller } from './server/projectCaller.js';
import { runProfilesCommand } from './server/profilesCommand.js';

async function main(): Promise<void> {
  const log = createLogger('mcp');
  if (process.argv[2] === 'profiles') {
    process.exitCode = await runProfilesCommand(
      process.argv.slice(3),
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
    );
    return;
  }
  const parsed = parseCli(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  if (parsed.kind === 'version') {
    process.stderr.write(`${SERVER_VERSION}\n`);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`browser-agent-mcp: ${parsed.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const options = parsed.options;
  let transactions;
  try {
    transactions = transactionLimitsFromEnv(process.env);
  } catch (err) {
    process.stderr.write(
      `browser-agent-mcp: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (options.bridgePort !== undefined)
    process.env['BROWSER_AGENT_PORT'] = String(options.bridgePort);

  const traceFile = process.env['BROWSER_AGENT_TRACE_FILE'];
  const trace = traceFile ? new TraceWriter(traceFile) : undefined;
  const project = new ProjectSession({
    launch: options.launch,
    cliProject: options.project,
    userPaths: statePaths(),
    log,
  });
  const daemon = new DaemonClient({
    route: () => project.route(),
    log,
    trace,
    sessionKey: process.env['BROWSER_AGENT_SESSION_KEY'] || undefined,
    policy: policyFromEnv(process.env),
    transactions,
    inProcess: process.env['BROWSER_AGENT_NO_DAEMON'] === '1',
  });
  const server = createMcpServer(projectAwareCaller(project, daemon), {
    caps: options.caps,
    projectPath: options.launch !== undefined && options.project === undefined,
  });
  server.server.oninitialized = () => {
    const client = server.server.getClientVersion() ?? { name: 'MCP client', version: '?' };
    daemon.setClient({ name: client.name, version: client.version });
    void projectFromRoots(server.server).then((root) => {
      // In launch mode with no project yet, the first call's projectPath may still pick one.
      if (project.initialize(root)) daemon.warmUp();
    });
  };

  let exiting = false;
  const shutdown = (why: string): void => {
    if (exiting) return;
    exiting = true;
    log.info(`${why}: exiting`);
    daemon.close();
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', () => shutdown('stdin ended'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => shutdown(sig));

  await server.connect(new StdioServerTransport());
}

void main();
