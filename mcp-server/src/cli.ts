/**
 * `browser-agent-mcp`: an MCP server on stdio (or Streamable HTTP with --port). Stdout carries
 * MCP frames only; logs go to stderr. Exits when stdin closes or on SIGINT/SIGTERM/SIGHUP,
 * leaving only the shared daemon behind.
 */
// First: it must run before any zod schema is created, the settings' included (see the file).
import './server/call/zodJitless.js';
// Only what decides the route loads before main() runs: the MCP SDK, the tools and the commands
// come by import() once the daemon is on its way (#26 item 3; browserSide.ts).
import { createLogger } from './shared/logger.js';
import { parseCli, defaultHeadless, USAGE } from './server/settings/cliOptions.js';
import { TraceWriter } from './server/outputFiles/traceWriter.js';
import { resolveSettings, type Settings } from './server/settings/config.js';
import { ConfigError } from './server/settings/configFile.js';
import { openBrowserSide, startBeforeHandshake } from './server/session/browserSide.js';
import { statePaths } from './shared/paths.js';

/** The words that name a subcommand instead of the server (commands/index.ts). */
const SUBCOMMANDS = new Set(['extension', 'setup', 'doctor', 'pairings']);

async function main(): Promise<void> {
  const log = createLogger('mcp');
  const io = {
    out: (t: string) => process.stdout.write(t),
    err: (t: string) => process.stderr.write(t),
  };
  const command = process.argv[2];
  if (command !== undefined && SUBCOMMANDS.has(command)) {
    const { runSubcommand } = await import('./commands/index.js');
    process.exitCode = await runSubcommand(process.argv.slice(2), io);
    return;
  }
  if (command === 'profiles') {
    const { runProfilesCommand } = await import('./commands/profilesCommand.js');
    process.exitCode = await runProfilesCommand(
      process.argv.slice(3),
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
    );
    return;
  }
  const parsed = parseCli(process.argv.slice(2));
  if (parsed.kind === 'help') {
    const { COMMANDS_USAGE } = await import('./commands/index.js');
    process.stderr.write(USAGE + COMMANDS_USAGE);
    return;
  }
  if (parsed.kind === 'version') {
    const { SERVER_VERSION } = await import('./server/call/mcpServer.js');
    process.stderr.write(`${SERVER_VERSION}\n`);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`browser-agent-mcp: ${parsed.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const options = parsed.options;
  let settings: Settings;
  try {
    settings = resolveSettings(
      options.settingFlags,
      options.launch !== undefined,
      process.env,
      defaultHeadless(process.env),
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`browser-agent-mcp: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (options.bridgePort !== undefined)
    process.env['BROWSER_AGENT_PORT'] = String(options.bridgePort);

  const traceFile = process.env['BROWSER_AGENT_TRACE_FILE'];
  const trace = traceFile ? new TraceWriter(traceFile) : undefined;
  const sessionOptions = {
    settings,
    caps: options.caps,
    cliProject: options.project,
    log,
    trace,
    sessionKey: undefined,
  };

  let stop: () => Promise<void>;
  if (options.http) {
    const { openBridgeSession, openSharedBridge } =
      await import('./server/session/bridgeSession.js');
    // Loaded only here: the SDK's HTTP transport costs ~20 ms of startup that stdio never uses.
    const { serveHttp } = await import('./server/http/httpTransport.js');
    const { loadOrCreateHttpToken, httpConfigSnippet, httpTokenPath } =
      await import('./server/http/httpAuth.js');
    const token = options.http.noToken ? undefined : loadOrCreateHttpToken(statePaths().dir);
    // --shared-browser-context: one bridge session (tabs, refs) for every HTTP/SSE client.
    const shared = settings.httpSharedBrowserContext ? openSharedBridge(sessionOptions) : undefined;
    const http = await serveHttp(
      {
        ...options.http,
        sessionIdleMs: settings.httpSessionIdleMs,
        allowedHosts: settings.httpAllowedHosts,
        heartbeatMs: settings.httpHeartbeatMs,
        ...(token === undefined ? {} : { tokenFile: httpTokenPath(statePaths().dir) }),
      },
      () => shared?.open() ?? openBridgeSession(sessionOptions),
      log,
      token,
    );
    process.stderr.write(
      `Add this to your MCP client's configuration:\n${httpConfigSnippet(http.url, token)}\n`,
    );
    stop = async () => {
      await http.close();
      await shared?.close();
    };
  } else {
    const sessionKey = process.env['BROWSER_AGENT_SESSION_KEY'] || undefined;
    const stdioOptions = { ...sessionOptions, sessionKey };
    const side = openBrowserSide(stdioOptions);
    if (startBeforeHandshake(side)) log.info('the bridge daemon starts ahead of the handshake');
    const [{ openBridgeSession }, { StdioServerTransport }] = await Promise.all([
      import('./server/session/bridgeSession.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    const session = openBridgeSession(stdioOptions, side);
    stop = () => session.close();
    const transport = new StdioServerTransport();
    await session.server.connect(transport);
    // The SDK's transport closes itself and stops reading stdin on a line over its 10 MiB buffer,
    // and on nothing else but our own close. Staying up then would leave a server that hears
    // nothing while it holds its session and browser: answer once, then exit and release both.
    const sdkOnClose = transport.onclose;
    const sdkOnError = transport.onerror;
    let overflow: string | undefined;
    transport.onerror = (err) => {
      if (/ReadBuffer exceeded/.test(err.message)) overflow = err.message;
      sdkOnError?.(err);
    };
    transport.onclose = () => {
      sdkOnClose?.();
      if (overflow !== undefined) {
        process.stdout.write(
          `${JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32600,
              message: `A message larger than the 10 MiB limit was refused (${overflow}); the server exits. Send smaller messages, then restart the server.`,
            },
          })}\n`,
        );
      }
      shutdown(
        overflow === undefined ? 'MCP transport closed' : 'message over 10 MiB on stdin',
        overflow === undefined ? 0 : 1,
      );
    };
  }

  let exiting = false;
  const shutdown = (why: string, code = 0): void => {
    if (exiting) return;
    exiting = true;
    log.info(`${why}: exiting`);
    void stop().finally(() => process.exit(code));
  };
  if (!options.http) {
    process.stdin.on('end', () => shutdown('stdin ended'));
    process.stdin.on('close', () => shutdown('stdin closed'));
  }
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => shutdown(sig));
}

void main();
