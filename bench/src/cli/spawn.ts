/**
 * `pnpm bench:spawn`: only the spawn → tools/list measurement of `pnpm bench`, with more spawns,
 * for work on server startup. Same setup as the full bench: one session holds the daemon and its
 * browser, then each timed spawn is a fresh `browser-agent-mcp` answering initialize and
 * tools/list. Option: --spawns=N (BENCH_SPAWNS, 20).
 */
import { startFixtureSite } from '../../fixtures/server.js';
import { progress, result, ms } from '../log.js';
import { measureSpawn } from '../runner/measureSpawn.js';
import { createSandbox } from '../sandbox.js';
import { summarize } from '../stats.js';
import { atExit, runMain } from './main.js';
import { countOption } from './options.js';

runMain(async () => {
  const spawns = countOption('spawns', 'BENCH_SPAWNS', 20);
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('spawn');
  atExit(() => sandbox.teardown());

  progress('starting the bridge (daemon, Chromium, extension)');
  const holder = await sandbox.spawnClient('bench-spawn-holder');
  await holder.callOk('browser_navigate', { url: site.url('/button.html') });

  progress(`spawn → tools/list, 1 warm-up + ${spawns}`);
  const spawn = await measureSpawn(sandbox, { warmup: 1, iterations: spawns });
  const leftovers = await sandbox.teardown();
  if (spawn.error !== undefined) return false;
  const s = summarize(spawn.samples);
  result(
    `spawn → tools/list (${s.n} spawns, ${spawn.tools} tools): median ${ms(s.median)}, p90 ${ms(s.p90)}, min ${ms(s.min)}, max ${ms(s.max)}`,
  );
  return leftovers.length === 0;
});
