import type { FixtureSite } from '../../fixtures/server.js';
import type { Agent, StepOutcome } from '../agents/agent.js';
import { expectText } from './expect.js';

/** One tool, timed alone on a prepared page, the same way on the bridge and the floor. */
export interface ToolProbe {
  id: string;
  label: string;
  /** The floor has no equivalent (e.g. the bridge's size-capped default snapshot). */
  bridgeOnly?: boolean;
  /** Untimed, once per agent before the iterations. */
  prepare?(agent: Agent, site: FixtureSite): Promise<void>;
  /** Untimed, before every iteration. */
  before?(agent: Agent, site: FixtureSite): Promise<void>;
  /** The timed step. */
  step(agent: Agent, site: FixtureSite, iteration: number): Promise<StepOutcome>;
}

/** How long the SPA fixture's fetch is held by the server. */
export const SPA_DELAY_MS = 400;

export const toolProbes: readonly ToolProbe[] = [
  {
    id: 'evaluate',
    label: 'evaluate `() => document.title`',
    prepare: async (agent, site) => void (await agent.goto(site.url('/button.html'))),
    step: async (agent) => {
      const outcome = await agent.evaluate('() => document.title');
      expectText(outcome, 'Click timing', 'evaluate');
      return outcome;
    },
  },
  {
    id: 'click',
    label: 'click a button (static page, includes settle)',
    prepare: async (agent, site) => {
      await agent.goto(site.url('/button.html'));
      await agent.read();
    },
    step: (agent) => agent.click({ role: 'button', name: 'Click me' }),
  },
  {
    id: 'type',
    label: 'type into an input',
    prepare: async (agent, site) => {
      await agent.goto(site.url('/form.html'));
      await agent.read();
    },
    step: (agent, _site, i) => agent.type({ role: 'textbox', name: 'Name' }, `Ada Lovelace ${i}`),
  },
  {
    id: 'snapshot-big-full',
    label: 'snapshot, page of ~5,000 elements (full)',
    prepare: async (agent, site) => void (await agent.goto(site.url('/big.html'))),
    step: (agent) => agent.read({ full: true }),
  },
  {
    id: 'snapshot-big',
    label: 'snapshot, page of ~5,000 elements (default size cap)',
    bridgeOnly: true,
    prepare: async (agent, site) => void (await agent.goto(site.url('/big.html'))),
    step: (agent) => agent.read(),
  },
  {
    id: 'snapshot-table-full',
    label: 'snapshot, 1,000-row table (full)',
    prepare: async (agent, site) => void (await agent.goto(site.url('/table.html'))),
    step: (agent) => agent.read({ full: true }),
  },
  {
    id: 'snapshot-table',
    label: 'snapshot, 1,000-row table (default size cap)',
    bridgeOnly: true,
    prepare: async (agent, site) => void (await agent.goto(site.url('/table.html'))),
    step: (agent) => agent.read(),
  },
  {
    id: 'screenshot',
    label: 'screenshot (viewport, PNG)',
    prepare: async (agent, site) => void (await agent.goto(site.url('/form.html'))),
    step: (agent) => agent.screenshot(),
  },
  {
    id: 'navigate',
    label: 'navigate to a small page (waits for load)',
    step: (agent, site, i) => agent.goto(site.url(i % 2 === 0 ? '/button.html' : '/form.html')),
  },
  {
    id: 'wait-for',
    label: `wait for delayed content (fetch held ${SPA_DELAY_MS} ms)`,
    before: async (agent, site) =>
      void (await agent.goto(site.url(`/spa.html?delay=${SPA_DELAY_MS}`))),
    step: (agent) => agent.waitForText('Loaded 20 items'),
  },
];
