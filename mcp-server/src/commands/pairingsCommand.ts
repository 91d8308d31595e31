/**
 * `browser-agent-mcp pairings list` and `pairings revoke <id>`: the daemon's half of every
 * pairing (never the secrets), and forgetting one. A running daemon watches the store and closes
 * the revoked browser's link at once; that browser has to pair again with a new code.
 * `--state-dir` names a project daemon's directory instead of the user's.
 */
import { parseArgs } from 'node:util';
import { PairingStore } from '../daemon/link/pairingStore.js';
import { statePaths } from '../shared/paths.js';

export const PAIRINGS_USAGE = `Usage: browser-agent-mcp pairings list [--state-dir <dir>]
       browser-agent-mcp pairings revoke <id> [--state-dir <dir>]
`;

/**
 * A pairing id is base64url, so about one in 32 starts with '-' (one in 4,096 with '--') and would
 * read as an option: the word after `revoke` is the id whatever it starts with, unless it is the
 * command's own option or `--` (moved behind `--` for the parser).
 */
function idLast(argv: string[]): string[] {
  const [verb, id, ...rest] = argv;
  const option = (word: string): boolean =>
    word === '--' || word === '--state-dir' || word.startsWith('--state-dir=');
  if (verb !== 'revoke' || id === undefined || !id.startsWith('-') || option(id)) return argv;
  return rest.includes('--') ? argv : [verb, ...rest, '--', id];
}

/** Runs the command; returns the exit code. Output goes to `out`, problems to `err`. */
export function runPairingsCommand(
  argv: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: idLast(argv),
      strict: true,
      allowPositionals: true,
      options: { 'state-dir': { type: 'string' } },
    });
  } catch (e) {
    err(
      `browser-agent-mcp pairings: ${e instanceof Error ? e.message : String(e)}\n${PAIRINGS_USAGE}`,
    );
    return 2;
  }
  const [verb, id, ...rest] = parsed.positionals;
  const store = new PairingStore(parsed.values['state-dir'] ?? statePaths().dir);
  if (verb === 'list' && id === undefined) {
    const all = store.all();
    if (all.length === 0) {
      out(
        'No paired browsers. A browser pairs when the user types the code the agent reports into its side panel.\n',
      );
      return 0;
    }
    for (const p of all) out(`${p.id}  ${p.createdAt}  ${p.label}\n`);
    return 0;
  }
  if (verb === 'revoke' && id !== undefined && rest.length === 0) {
    if (!store.remove(id)) {
      err(`browser-agent-mcp pairings: no pairing ${id}; see "browser-agent-mcp pairings list".\n`);
      return 1;
    }
    out(
      `Revoked ${id}. That browser has to pair again; its side panel still lists it until forgotten there.\n`,
    );
    return 0;
  }
  err(PAIRINGS_USAGE);
  return 2;
}
