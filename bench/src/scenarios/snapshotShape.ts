import { bigPageInteractive } from '../../fixtures/bigPage.js';
import type { FixtureSite } from '../../fixtures/server.js';
import type { Agent } from '../agents/agent.js';

export interface SnapshotShape {
  /** Controls of the big page a full read shows with their role and name. */
  kept: number;
  total: number;
  /** The default (size-capped) read of the same page. */
  defaultChars: number;
  /** Whether the default read says it was cut. */
  defaultMarked: boolean;
}

/**
 * What the issue asks of snapshots beyond speed: a smaller outline still keeps every interactive
 * element and its name, and the default response stays small and says when it was cut.
 */
export async function snapshotShape(agent: Agent, site: FixtureSite): Promise<SnapshotShape> {
  await agent.goto(site.url('/big.html'));
  const full = await agent.read({ full: true });
  const controls = bigPageInteractive();
  const kept = controls.filter((c) => full.text.includes(`${c.role} ${JSON.stringify(c.name)}`));
  const capped = await agent.read();
  return {
    kept: kept.length,
    total: controls.length,
    defaultChars: capped.text.length,
    defaultMarked: /truncated/i.test(capped.text),
  };
}
