/**
 * `pnpm bench`: per-tool latency and output size of the bridge (a real MCP client driving
 * `browser-agent-mcp --launch --headless` on a profile in the run's scratch dir) beside a raw playwright-core floor and the
 * same floor behind a minimal MCP server (the floor over MCP) in the same run, the 9-page suite, spawn → tools/list, the hop breakdown from the server's trace, and
 * the daemon's memory with 8 sessions, and the real-pages phase (navigate time, snapshot size and
 * recall beside Playwright MCP and Chrome DevTools MCP; --no-real-pages skips it). Writes the
 * results and real-pages sections of docs/benchmarks.md.
 *
 * Options (flag or environment): --iterations=N (BENCH_ITERATIONS, 20), --warmup=N
 * (BENCH_WARMUP, 3), --passes=N (BENCH_SUITE_PASSES, 3), --spawns=N (BENCH_SPAWNS, 10),
 * --sessions=N (BENCH_SESSIONS, 8), --no-floor (skips both floors), --no-mcp-floor, --no-write
 * (leave the doc alone).
 */
import path from 'node:path';
import { startFixtureSite } from '../../fixtures/server.js';
import type { Agent } from '../agents/agent.js';
import { BridgeAgent } from '../agents/bridgeAgent.js';
import { FloorAgent } from '../agents/floorAgent.js';
import { launchFloorBrowser } from '../agents/floorBrowser.js';
import { McpFloorAgent } from '../agents/mcpFloorAgent.js';
import { progress, result } from '../log.js';
import { measureSessionsMemory } from '../memory/sessionsMemory.js';
import { writeDocSection } from '../report/docSection.js';
import { machineInfo } from '../report/machine.js';
import { renderResults, type BenchResults } from '../report/renderResults.js';
import { measureProbe, type ProbeResult } from '../runner/measureProbe.js';
import { measureRawAxTree } from '../runner/measureRawAxTree.js';
import { measureSpawn } from '../runner/measureSpawn.js';
import { measureFirstCalls } from '../runner/measureFirstCall.js';
import { runSuite } from '../runner/runSuite.js';
import { createSandbox } from '../sandbox.js';
import { snapshotShape } from '../scenarios/snapshotShape.js';
import { suite } from '../scenarios/suite.js';
import { toolProbes } from '../scenarios/toolProbes.js';
import { hopBreakdown } from '../trace/hopBreakdown.js';
import { readTrace } from '../trace/traceFile.js';
import { realPages } from '../../fixtures/realPages.js';
import { oursPeer } from '../realPages/peers.js';
import { realPagesPhase, type RealPagesRun } from '../realPages/phase.js';
import { renderRealPages } from '../realPages/renderRealPages.js';
import { atExit, runMain } from './main.js';
import { countOption, hasFlag } from './options.js';

runMain(async () => {
  const plan = {
    warmup: countOption('warmup', 'BENCH_WARMUP', 3),
    iterations: countOption('iterations', 'BENCH_ITERATIONS', 20),
    suitePasses: countOption('passes', 'BENCH_SUITE_PASSES', 3),
    spawns: countOption('spawns', 'BENCH_SPAWNS', 10),
  };
  const sessions = countOption('sessions', 'BENCH_SESSIONS', 8);
  const machine = await machineInfo();
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('bench');
  atExit(() => sandbox.teardown());
  const traceFile = path.join(sandbox.root, 'trace.jsonl');

  const agents: Agent[] = [];
  let floor: FloorAgent | undefined;
  if (!hasFlag('no-floor')) {
    const floorBrowser = await launchFloorBrowser();
    atExit(() => floorBrowser.close());
    floor = await FloorAgent.create(floorBrowser);
    agents.push(floor);
  }
  let mcpFloor: McpFloorAgent | undefined;
  if (!hasFlag('no-floor') && !hasFlag('no-mcp-floor')) {
    progress('starting the floor over MCP (a minimal MCP server and its Chromium)');
    mcpFloor = await McpFloorAgent.spawn(sandbox);
    agents.push(mcpFloor);
  }
  progress('starting the bridge (daemon, Chromium, extension)');
  const client = await sandbox.spawnClient('bench', {
    env: { BROWSER_AGENT_TRACE_FILE: traceFile },
  });
  const first = await client.callOk('browser_navigate', { url: site.url('/button.html') });
  const bridge = new BridgeAgent(client);
  agents.unshift(bridge);

  const probes: ProbeResult[] = [];
  for (const probe of toolProbes) {
    progress(`probe ${probe.id}`);
    probes.push(await measureProbe(probe, agents, site, plan));
  }
  if (floor !== undefined) {
    progress('raw CDP accessibility tree (floor reference)');
    probes.push(...(await measureRawAxTree(floor, site, plan)));
  }
  progress('snapshot shape: controls kept, default size cap');
  const shape = await snapshotShape(bridge, site).catch((err: unknown) => {
    progress(`snapshot shape check failed: ${String(err)}`);
    return undefined;
  });
  progress('suite');
  // The floor over MCP runs the suite too: beside each step kind it shows what a minimal MCP
  // server pays on top of the in-process floor before any bridge (#26 item 2). Its Chromium is
  // closed after it, so the phases that follow do not share the machine with it.
  const suiteResult = await runSuite(suite, agents, site, {
    warmup: 1,
    passes: plan.suitePasses,
  });
  await mcpFloor?.close();
  let real: RealPagesRun | undefined;
  if (!hasFlag('no-real-pages')) {
    progress('real pages: ours, Playwright MCP and Chrome DevTools MCP');
    real = await realPagesPhase(sandbox, site, realPages(), oursPeer(client)).catch(
      (err: unknown) => {
        progress(`real pages failed: ${String(err)}`);
        return undefined;
      },
    );
  }
  progress('first call of a new server: ours, Playwright MCP, Chrome DevTools MCP');
  const firstCalls = await measureFirstCalls(site);
  progress('spawn → tools/list');
  const spawn = await measureSpawn(sandbox, { warmup: 1, iterations: plan.spawns });
  progress(`memory with ${sessions} sessions`);
  const memory = await measureSessionsMemory(sandbox, site, client, sessions);
  const trace = await readTrace(traceFile);
  const leftovers = await sandbox.teardown();

  const results: BenchResults = {
    machine,
    plan,
    firstCallMs: first.ms,
    firstCalls,
    probes,
    shape,
    suite: suiteResult,
    spawn,
    hops: trace.length > 0 ? hopBreakdown(trace) : undefined,
    memory,
  };
  const markdown = renderResults(results);
  result(markdown);
  if (!hasFlag('no-write')) progress(`wrote ${await writeDocSection('results', markdown)}`);
  if (real !== undefined) {
    const realMarkdown = renderRealPages({ machine, pages: realPages(), ...real });
    result(realMarkdown);
    if (!hasFlag('no-write'))
      progress(`wrote ${await writeDocSection('real-pages', realMarkdown)}`);
  }

  const failures = [
    ...probes.filter((p) => p.error !== undefined).map((p) => `probe ${p.id}`),
    ...(suiteResult.error === undefined ? [] : ['suite']),
    ...(spawn.error === undefined ? [] : ['spawn']),
    ...firstCalls.errors.map((e) => `first call ${e}`),
    ...(memory.error === undefined ? [] : ['memory']),
    ...(shape === undefined ? ['snapshot shape'] : []),
    ...(real === undefined && !hasFlag('no-real-pages') ? ['real pages'] : []),
    ...leftovers.map((p) => `leftover process ${p.pid} ${p.cmdline}`),
  ];
  for (const f of failures) progress(`FAILED: ${f}`);
  return failures.length === 0;
});
