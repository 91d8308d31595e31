import { bigPageInteractive } from '../../fixtures/bigPage.js';
import type { FixtureSite } from '../../fixtures/server.js';
import type { Agent } from '../agents/agent.js';

/**
 * How many of the big page's controls a full read shows with their role and name: the issue
 * asks that a smaller snapshot still keep every interactive element and its name.
 */
export async function controlsKept(
  agent: Agent,
  site: FixtureSite,
): Promise<{ kept: number; total: number }> {
  await agent.goto(site.url('/big.html'));
  const { text } = await agent.read({ full: true });
  const controls = bigPageInteractive();
  const kept = controls.filter((c) => text.includes(`${c.role} ${JSON.stringify(c.name)}`));
  return { kept: kept.length, total: controls.length };
}
