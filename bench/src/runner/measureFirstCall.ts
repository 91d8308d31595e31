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
import { turnOrder } from './measureProbe.js';

/** A peer's first calls over the rounds, in ms (each round a new server in a new home). */
export type FirstCallSamples = Partial<Record<PeerId, number[]>>;

export interface FirstCalls {
  /** After the handshake: the call's own time, as the client sees it. */
  afterHandshake: FirstCallSamples;
  /** The same, with the call sent PAUSE_MS after the handshake (as when a person types first). */
  afterPause: FirstCallSamples;
  /**
   * From the server's spawn to the first call's answer (handshake included): what a client that
   * starts a server and calls it at once waits for, whatever the server does before its handshake.
   */
  fromSpawn: FirstCallSamples;
  rounds: number;
  errors: string[];
}

/**
 * An MCP client starts its servers when it starts, and the first tool call comes once a person
 * has asked for something: what a server does at initialize is then off the first call.
 */
const PAUSE_MS = 2_000;

/**
 * One sample per peer was a coin toss: in one run ours took 2.04 s against 0.7-0.9 s in every
 * other round that day (session 31). Rounds interleave the peers, so a slow moment of the
 * machine falls on each in turn; the report gives the median and the range. Three rounds were
 * still too few where two peers are close: the first calls of one server spread over ~300 ms on
 * a 2-core machine, and over seven `pnpm bench` runs of three rounds the leader after the
 * handshake changed from run to run (session 35). Seven rounds add ~2 minutes to the run.
 */
const FIRST_CALL_ROUNDS = 7;

export async function measureFirstCalls(site: FixtureSite): Promise<FirstCalls> {
  const rounds = FIRST_CALL_ROUNDS;
  const result: FirstCalls = {
    afterHandshake: {},
    afterPause: {},
    fromSpawn: {},
    rounds,
    errors: [],
  };
  const add = (samples: FirstCallSamples, id: PeerId, ms: number): void => {
    (samples[id] ??= []).push(ms);
  };
  for (let round = 1; round <= rounds; round++) {
    for (const pauseMs of [0, PAUSE_MS]) {
      // Each round another peer goes first, so none always starts on a machine just freed.
      for (const id of turnOrder(ALL_PEERS, round)) {
        progress(
          `first call ${round}/${rounds}: ${id}${pauseMs > 0 ? ` after ${pauseMs} ms` : ''}`,
        );
        const timed = await firstCall(id, site, pauseMs, result.errors);
        if (timed === undefined) continue;
        if (pauseMs > 0) add(result.afterPause, id, timed.ms);
        else {
          add(result.afterHandshake, id, timed.ms);
          add(result.fromSpawn, id, timed.fromSpawnMs);
        }
      }
    }
  }
  return result;
}

async function firstCall(
  id: PeerId,
  site: FixtureSite,
  pauseMs: number,
  errors: string[],
): Promise<{ ms: number; fromSpawnMs: number } | undefined> {
  const sandbox = await createSandbox(`first-call-${id}`);
  try {
    const spawned = performance.now();
    const peer = await startPeer(id, sandbox);
    const handshakeMs = performance.now() - spawned;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const nav = await peer.navigate(site.url('/button.html'));
    if (!peer.navigationFailed(nav)) return { ms: nav.ms, fromSpawnMs: handshakeMs + nav.ms };
    errors.push(`${id}: ${nav.text.slice(0, 200)}`);
  } catch (err) {
    errors.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    const leftovers = await sandbox.teardown();
    for (const p of leftovers) errors.push(`${id}: leftover process ${p.pid}`);
  }
  return undefined;
}
