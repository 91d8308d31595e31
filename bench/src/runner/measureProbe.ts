import type { FixtureSite } from '../../fixtures/server.js';
import type { Agent } from '../agents/agent.js';
import { progress } from '../log.js';
import type { ToolProbe } from '../scenarios/toolProbes.js';
import { sampleOf, type SamplesByAgent } from './samples.js';

export interface RunPlan {
  warmup: number;
  iterations: number;
}

export interface ProbeResult {
  id: string;
  label: string;
  samples: SamplesByAgent;
  /** Set when the probe stopped on an error; its samples are then partial. */
  error?: string;
}

/**
 * Runs a probe on every agent, iteration by iteration and alternating which agent goes first,
 * so a noisy moment on the machine hits both sides alike and the ratio stays honest.
 */
export async function measureProbe(
  probe: ToolProbe,
  allAgents: readonly Agent[],
  site: FixtureSite,
  plan: RunPlan,
): Promise<ProbeResult> {
  const result: ProbeResult = { id: probe.id, label: probe.label, samples: {} };
  const agents =
    probe.bridgeOnly === true ? allAgents.filter((a) => a.kind === 'bridge') : allAgents;
  try {
    for (const agent of agents) {
      await probe.prepare?.(agent, site);
      result.samples[agent.kind] = [];
    }
    for (let i = 0; i < plan.warmup + plan.iterations; i += 1) {
      const order = i % 2 === 0 ? agents : [...agents].reverse();
      for (const agent of order) {
        await probe.before?.(agent, site);
        const outcome = await probe.step(agent, site, i);
        if (i >= plan.warmup) result.samples[agent.kind]?.push(sampleOf(outcome));
      }
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    progress(`probe ${probe.id} failed: ${result.error}`);
  }
  return result;
}
