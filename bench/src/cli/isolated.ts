/**
 * `pnpm bench:isolated` (#27.2): what each extra `--isolated` session costs, ours beside
 * Playwright MCP's `--isolated` (started as the real-pages phase starts it), in one run. Sessions are added one at a time, each a new server
 * (as a client that starts one per conversation would), and stay open: per session, the time
 * from spawning its server to its first navigate answered, and the memory of everything the run
 * started (PSS summed over every process: servers, daemons, browsers). Then all close, and the
 * time until no browser is left is measured. Option: --sessions=N (BENCH_ISOLATED_SESSIONS, 4).
 */
import { processTree, pssMiB } from '@browser-agent/testkit/procfs';
import { startFixtureSite } from '../../fixtures/server.js';
import { progress, result, ms } from '../log.js';
import type { BenchClient } from '../mcp/benchClient.js';
import { CHROME_PATH } from '../paths.js';
import { startPeer } from '../realPages/peers.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { atExit, runMain } from './main.js';
import { countOption } from './options.js';
const SETTLE_MS = 1_500;
const GONE_TIMEOUT_MS = 60_000;

type Who = 'ours' | 'playwright-mcp';

async function spawnIsolated(who: Who, sandbox: Sandbox, i: number): Promise<BenchClient> {
  if (who === 'playwright-mcp') return (await startPeer('playwright-mcp', sandbox)).client;
  return sandbox.spawnClient(`isolated-${i}`, {
    flags: ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH],
  });
}

/**
 * Everything the run started: the processes carrying its home, and their descendants (Chromium's
 * helpers are forked by its zygote and need not show the home in their environment).
 */
function memory(sandbox: Sandbox): { pssMiB: number; processes: number; browsers: number } {
  const own = sandbox.ownProcesses();
  const pids = new Set(own.flatMap((p) => processTree(p.pid)));
  return {
    pssMiB: [...pids].reduce((sum, pid) => sum + (pssMiB(pid) ?? 0), 0),
    processes: pids.size,
    browsers: own.filter((p) => /--user-data-dir=/.test(p.cmdline) && !/--type=/.test(p.cmdline))
      .length,
  };
}

async function run(who: Who, sessions: number, url: string): Promise<boolean> {
  const sandbox = await createSandbox(`isolated-${who}`);
  atExit(() => sandbox.teardown());
  const clients: BenchClient[] = [];
  let previous = memory(sandbox).pssMiB;
  try {
    for (let i = 1; i <= sessions; i += 1) {
      const started = performance.now();
      const client = await spawnIsolated(who, sandbox, i);
      clients.push(client);
      const nav = await client.callUntyped('browser_navigate', { url });
      const startMs = performance.now() - started;
      if (nav.isError) throw new Error(`${who} session ${i}: ${nav.text.slice(0, 200)}`);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const now = memory(sandbox);
      result(
        `${who.padEnd(15)} session ${i}: start+first navigate ${ms(startMs).padStart(8)}, all processes ${now.pssMiB.toFixed(0)} MiB PSS (+${(now.pssMiB - previous).toFixed(0)}), ${now.processes} processes, ${now.browsers} browser(s)`,
      );
      previous = now.pssMiB;
    }
    const closing = performance.now();
    await Promise.all(clients.map((c) => c.close()));
    let left = memory(sandbox).browsers;
    while (left > 0 && performance.now() - closing < GONE_TIMEOUT_MS) {
      await new Promise((r) => setTimeout(r, 100));
      left = memory(sandbox).browsers;
    }
    result(
      `${who.padEnd(15)} after the last client closed: ${left === 0 ? `no browser left after ${ms(performance.now() - closing)}` : `${left} browser(s) still running after ${GONE_TIMEOUT_MS / 1000} s`}`,
    );
    return true;
  } finally {
    const leftovers = await sandbox.teardown();
    if (leftovers.length > 0)
      progress(`${who}: ${leftovers.length} process(es) stopped at teardown`);
  }
}

runMain(async () => {
  const sessions = countOption('sessions', 'BENCH_ISOLATED_SESSIONS', 4);
  const site = await startFixtureSite();
  atExit(() => site.close());
  const url = site.url('/button.html');
  let ok = true;
  for (const who of ['ours', 'playwright-mcp'] as const) ok = (await run(who, sessions, url)) && ok;
  return ok;
});
