import { describe, expect, it } from 'vitest';
import type { Agent, StepOutcome } from '../agents/agent.js';
import { RecordingAgent } from './recordingAgent.js';

const outcome: StepOutcome = { ms: 5, text: 'ok', imageChars: 0 };

/** An agent whose every step answers at once (only type and select are called here). */
const inner = {
  kind: 'floor',
  type: () => Promise.resolve(outcome),
  select: () => Promise.resolve(outcome),
} as unknown as Agent;

describe('RecordingAgent', () => {
  it('records a type that presses Enter as its own kind, submit', async () => {
    const agent = new RecordingAgent(inner);
    await agent.type({ role: 'textbox', name: 'Username' }, 'ada');
    await agent.type({ role: 'textbox', name: 'Password' }, 'pw', { submit: true });
    await agent.type({ role: 'textbox', name: 'Name' }, 'x', { submit: false });
    expect(agent.steps.map((s) => s.step)).toEqual(['type', 'submit', 'type']);
  });

  it('records choosing an option as its own kind, select', async () => {
    const agent = new RecordingAgent(inner);
    await agent.select({ role: 'combobox', name: 'Topic' }, 'Billing');
    expect(agent.steps).toEqual([{ step: 'select', ms: 5, textChars: 2, imageChars: 0 }]);
  });
});
