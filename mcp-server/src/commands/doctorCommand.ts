/**
 * `browser-agent-mcp doctor [--json] [--executable-path <file>]`: one line per check, each failed
 * one followed by what to do. Exit code 1 when a check failed.
 */
import { parseArgs } from 'node:util';
import { packageVersion } from '../shared/version.js';
import { diagnose, type Check } from './doctor/doctorFacts.js';
import type { Output } from './extensionCommand.js';

export const DOCTOR_USAGE = `Usage: browser-agent-mcp doctor [--json] [--executable-path <file>]

Checks Node, the browser launch mode would start, the packaged extension, the daemon (version,
socket and its permissions), who holds the bridge port, the extension link and its version,
pairing, live sessions and the daemon's last errors. Exits 1 when a check failed.
`;

const MARK: Record<Check['status'], string> = {
  ok: 'ok  ',
  info: 'info',
  warn: 'WARN',
  fail: 'FAIL',
};

export async function runDoctorCommand(
  argv: string[],
  io: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        json: { type: 'boolean' },
        'executable-path': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    io.err(`browser-agent-mcp doctor: ${(err as Error).message}\n\n${DOCTOR_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(DOCTOR_USAGE);
    return 0;
  }
  const checks = await diagnose({ env, executablePath: values['executable-path'] });
  const failed = checks.filter((c) => c.status === 'fail');
  if (values.json) {
    io.out(
      `${JSON.stringify({ version: packageVersion(), ok: failed.length === 0, checks }, null, 2)}\n`,
    );
  } else {
    io.out(`browser-agent-mcp ${packageVersion()} doctor\n`);
    for (const c of checks) {
      io.out(`${MARK[c.status]} ${c.id}: ${c.summary}\n`);
      if (c.fix !== undefined && c.status !== 'ok') io.out(`     -> ${c.fix}\n`);
    }
    io.out(
      failed.length === 0
        ? 'No problem found.\n'
        : `${failed.length} problem(s): fix the first FAIL above, then run doctor again.\n`,
    );
  }
  return failed.length === 0 ? 0 : 1;
}
