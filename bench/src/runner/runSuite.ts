import { performance } from 'node:perf_hooks';
import type { FixtureSite } from '../../fixtures/server.js';
import type { Agent, AgentKind } from '../agents/agent.js';
import { progress } from '../log.js';
import type { Flow } from '../scenarios/suite.js';
import { RecordingAgent, type StepRecord } from './recordingAgent.js';

export interface SuitePass {
  wallMs: number;
  flows: Array<{ id: string; wallMs: number }>;
  steps: StepRecord[];
}

export interface SuiteResult {
  passes: Partial<Record<AgentKind, SuitePass[]>>;
  error?: string;
}

/** Whole passes over the suite, alternating which agent goes first from pass to pass. */
export async function runSuite(
  flows: readonly Flow[],
  agents: readonly Agent[],
  site: FixtureSite,
  plan: { warmup: number; passes: number },
): Promise<SuiteResult> {
  const result: SuiteResult = { passes: {} };
  try {
    for (let p = 0; p < plan.warmup + plan.passes; p += 1) {
      const order = p % 2 === 0 ? agents : [...agents].reverse();
      for (const agent of order) {
        const pass = await onePass(flows, agent, site);
        if (p >= plan.warmup) (result.passes[agent.kind] ??= []).push(pass);
      }
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    progress(`suite failed: ${result.error}`);
  }
  return result;
}

async function onePass(
  flows: readonly Flow[],
  agent: Agent,
  site: FixtureSite,
): Promise<SuitePass> {
  const recorder = new RecordingAgent(agent);
  const started = performance.now();
  const timings: SuitePass['flows'] = [];
  for (const flow of flows) {
    const flowStarted = performance.now();
    try {
      await flow.run(recorder, site);
    } catch (err) {
      throw new Error(
        `${agent.kind} flow ${flow.id}: ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
    timings.push({ id: flow.id, wallMs: performance.now() - flowStarted });
  }
  return { wallMs: performance.now() - started, flows: timings, steps: recorder.steps };
}
