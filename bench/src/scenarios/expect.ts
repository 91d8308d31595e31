import type { StepOutcome } from '../agents/agent.js';

/** A scenario's check that the step did what an agent needed; throws with what came back. */
export function expectText(outcome: StepOutcome, fragment: string, what: string): void {
  if (!outcome.text.includes(fragment))
    throw new Error(`${what}: expected "${fragment}" in:\n${outcome.text.slice(0, 1_000)}`);
}
