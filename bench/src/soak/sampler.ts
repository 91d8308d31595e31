import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { footprint } from '../memory/footprint.js';
import { processTree } from '@browser-agent/testkit/procfs';
import { probeDaemonHeap, type DaemonHeap } from './daemonHeap.js';
import type { SoakBrowser } from './soakBrowser.js';

export interface SoakSample {
  minute: number;
  daemonRssMiB: number | undefined;
  /** From the daemon's opt-in memory probe, right after a forced GC; undefined without it. */
  daemonHeap: DaemonHeap | undefined;
  serverRssMiB: number;
  browserPssMiB: number;
  browserProcesses: number;
  tabs: number;
  attachedTabs: number;
}

/** Samples memory and the browser's tabs every `intervalMs` until the deadline. */
export async function sampleUntil(
  deadline: number,
  intervalMs: number,
  who: {
    daemonPid: number | undefined;
    serverPid: number;
    browser: SoakBrowser;
    /** The daemon's state dir, when its memory probe is on. */
    probeDir: string | undefined;
    /** Probe at most this often: each probe forces a GC, which would flatten RSS by itself. */
    probeIntervalMs: number;
  },
): Promise<SoakSample[]> {
  const started = performance.now();
  const samples: SoakSample[] = [];
  let lastProbe = -Infinity;
  while (performance.now() < deadline) {
    // RSS first: the probe's forced GC would shrink it, and the RSS trend is judged unforced.
    const f = footprint(who.daemonPid, [who.serverPid], processTree(who.browser.pid));
    const probeDue = performance.now() - lastProbe >= who.probeIntervalMs;
    const daemonHeap =
      who.probeDir === undefined || who.daemonPid === undefined || !probeDue
        ? undefined
        : await probeDaemonHeap(who.daemonPid, who.probeDir);
    if (daemonHeap !== undefined) lastProbe = performance.now();
    const pages = await who.browser.pages().catch(() => []);
    samples.push({
      minute: (performance.now() - started) / 60_000,
      daemonRssMiB: f.daemonRssMiB,
      daemonHeap,
      serverRssMiB: f.serversRssMiB,
      browserPssMiB: f.browserPssMiB,
      browserProcesses: f.browserProcesses,
      tabs: pages.length,
      attachedTabs: pages.filter((p) => p.attached).length,
    });
    await sleep(Math.max(0, Math.min(intervalMs, deadline - performance.now())));
  }
  return samples;
}
