/**
 * `pnpm bench:smoke`: every scenario of the bench, a few calls each, on the bridge, the floor and
 * the floor over MCP (the suite reaches every one of its tools). It asserts only that each one
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
import { atExit, runMain } from './main.js';

runMain(async () => {
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('smoke');
  atExit(() => sandbox.teardown());
  const floorBrowser = await launchFloorBrowser();
  atExit(() => floorBrowser.close());

  const client = await sandbox.spawnClient('bench-smoke');
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
