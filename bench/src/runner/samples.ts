import type { AgentKind, StepOutcome } from '../agents/agent.js';

export interface Sample {
  ms: number;
  textChars: number;
  imageChars: number;
}

export function sampleOf(outcome: StepOutcome): Sample {
  return { ms: outcome.ms, textChars: outcome.text.length, imageChars: outcome.imageChars };
}

export type SamplesByAgent = Partial<Record<AgentKind, Sample[]>>;
