/**
 * The first tool call of a new server, in launch mode where it has one: a navigate to a small
 * page right after the MCP handshake, timed in the client. For us it holds the daemon's start,
 * Chromium's launch and the extension coming up; the peers start their browser on their first
 * call too. Each server gets a scratch home of its own, so nothing of an earlier one is warm.
 */
import type { FixtureSite } from '../../fixtures/server.js';
import { progress } from '../log.js';
import { ALL_PEERS } from '../realPages/phase.js';
import { startPeer, type PeerId } from '../realPages/peers.js';
import { createSandbox } from '../sandbox.js';

export type FirstCalls = Partial<Record<PeerId, number>> & { errors: string[] };

export async function measureFirstCalls(site: FixtureSite): Promise<FirstCalls> {
  const result: FirstCalls = { errors: [] };
  for (const id of ALL_PEERS) {
    progress(`first call: ${id}`);
    const sandbox = await createSandbox(`first-call-${id}`);
    try {
      const peer = await startPeer(id, sandbox);
      const nav = await peer.navigate(site.url('/button.html'));
      if (peer.navigationFailed(nav)) result.errors.push(`${id}: ${nav.text.slice(0, 200)}`);
      else result[id] = nav.ms;
    } catch (err) {
      result.errors.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      const leftovers = await sandbox.teardown();
      for (const p of leftovers) result.errors.push(`${id}: leftover process ${p.pid}`);
    }
  }
  return result;
}
