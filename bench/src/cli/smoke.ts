/**
 * `pnpm bench:smoke`: every scenario of the bench, a few calls each, on the bridge, the floor and
 * the floor over MCP (the suite reaches every one of its tools), and three of the real pages on
 * Browser Agent, Playwright MCP and Chrome DevTools MCP. It asserts only that each one
 * ran and succeeded; it never asserts a time (CI runs it).
 */
import { startFixtureSite } from '../../fixtures/server.js';
import { BridgeAgent } from '../agents/bridgeAgent.js';
import { FloorAgent } from '../agents/floorAgent.js';
import { launchFloorBrowser } from '../agents/floorBrowser.js';
import { McpFloorAgent } from '../agents/mcpFloorAgent.js';
import { progress, result } from '../log.js';
import { measureProbe } from '../runner/measureProbe.js';
import { measureSpawn } from '../runner/measureSpawn.js';
import { runSuite } from '../runner/runSuite.js';
import { createSandbox } from '../sandbox.js';
import { suite } from '../scenarios/suite.js';
import { toolProbes } from '../scenarios/toolProbes.js';
import { realPages } from '../../fixtures/realPages.js';
import { realPagesPhase } from '../realPages/phase.js';
import { oursPeer } from '../realPages/peers.js';
import { atExit, runMain } from './main.js';

/** A news, a blog and a shop page whose loads all answer within 2 s (a peer gives up at 10 s). */
const SMOKE_PAGE_INDEXES = [6, 7, 8];

runMain(async () => {
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('smoke');
  atExit(() => sandbox.teardown());
  const floorBrowser = await launchFloorBrowser();
  atExit(() => floorBrowser.close());

  const client = await sandbox.spawnClient('bench-smoke');
  const ours = oursPeer(client);
  const agents = [
    new BridgeAgent(client),
    await FloorAgent.create(floorBrowser),
    await McpFloorAgent.spawn(sandbox),
  ];
  const outcomes: Array<{ name: string; error: string | undefined }> = [];

  for (const probe of toolProbes) {
    progress(`probe ${probe.id}`);
    const r = await measureProbe(probe, agents, site, { warmup: 0, iterations: 1 });
    outcomes.push({ name: `probe ${probe.id}`, error: r.error });
  }
  progress('suite');
  const suiteResult = await runSuite(suite, agents, site, { warmup: 0, passes: 1 });
  outcomes.push({ name: 'suite (9 flows, each agent)', error: suiteResult.error });
  progress('real pages (3 pages, each server)');
  const real = await realPagesPhase(
    sandbox,
    site,
    realPages().filter((_, i) => SMOKE_PAGE_INDEXES.includes(i)),
    ours,
  ).catch((err: unknown) => String(err));
  if (typeof real === 'string') {
    outcomes.push({ name: 'real pages', error: real });
  } else {
    for (const v of real.visits) {
      const error = v.navigateFailed
        ? `navigate failed: ${v.navigateNote ?? ''}`
        : v.snapshotFailed || v.snapshotChars === 0
          ? 'no snapshot'
          : undefined;
      outcomes.push({ name: `real page ${v.page} on ${v.peer}`, error });
    }
  }
  progress('spawn → tools/list');
  const spawn = await measureSpawn(sandbox, { warmup: 0, iterations: 1 });
  outcomes.push({
    name: 'spawn → tools/list',
    error: spawn.error ?? (spawn.tools === 0 ? 'tools/list returned no tools' : undefined),
  });

  const leftovers = await sandbox.teardown();
  outcomes.push({
    name: 'no processes left behind',
    error:
      leftovers.length === 0 ? undefined : leftovers.map((p) => `${p.pid} ${p.cmdline}`).join('\n'),
  });

  for (const o of outcomes)
    result(`${o.error === undefined ? 'ok  ' : 'FAIL'} ${o.name}${o.error ? `: ${o.error}` : ''}`);
  const failed = outcomes.filter((o) => o.error !== undefined).length;
  result(`bench smoke: ${outcomes.length - failed} passed, ${failed} failed`);
  return failed === 0;
});
