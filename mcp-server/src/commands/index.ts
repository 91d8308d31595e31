/**
 * The subcommands beside the MCP server itself: `extension`, `setup <client>`, `doctor`,
 * `pairings`.
 * Returns undefined when argv names none of them (then the CLI runs the server).
 */
import { runDoctorCommand } from './doctorCommand.js';
import { runExtensionCommand, type Output } from './extensionCommand.js';
import { runPairingsCommand } from './pairingsCommand.js';
import { runSetupCommand } from './setupCommand.js';

export const COMMANDS_USAGE = `
Other commands:
  browser-agent-mcp extension [--zip <file>]   the packaged extension's folder, or a store zip
  browser-agent-mcp setup <client> [--print]   add this server to claude-desktop, claude-code,
                                               cursor or vscode
  browser-agent-mcp doctor [--json]            check every part of the chain and say what to fix
  browser-agent-mcp pairings list|revoke <id>  the browsers paired with this bridge; revoke one
`;

export async function runSubcommand(argv: string[], io: Output): Promise<number | undefined> {
  const [name, ...rest] = argv;
  switch (name) {
    case 'extension':
      return runExtensionCommand(rest, io);
    case 'setup':
      return runSetupCommand(rest, io);
    case 'doctor':
      return runDoctorCommand(rest, io);
    case 'pairings':
      return runPairingsCommand(rest, io.out, io.err);
    case undefined:
    default:
      return undefined;
  }
}
