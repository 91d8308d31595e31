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
 * Runs a probe on every agent, iteration by iteration and rotating which agent goes first, so a
 * noisy moment on the machine hits every side alike and the ratios stay honest.
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
      const order = turnOrder(agents, i);
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

/** Iteration i starts with agent i mod n, so each agent takes each place equally often. */
export function turnOrder<T>(agents: readonly T[], iteration: number): T[] {
  const shift = agents.length === 0 ? 0 : iteration % agents.length;
  return [...agents.slice(shift), ...agents.slice(0, shift)];
}
