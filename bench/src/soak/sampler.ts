import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { footprint } from '../memory/footprint.js';
import { processTree } from '../procfs.js';
import type { SoakBrowser } from './soakBrowser.js';

export interface SoakSample {
  minute: number;
  daemonRssMiB: number | undefined;
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
  who: { daemonPid: number | undefined; serverPid: number; browser: SoakBrowser },
): Promise<SoakSample[]> {
  const started = performance.now();
  const samples: SoakSample[] = [];
  while (performance.now() < deadline) {
    const f = footprint(who.daemonPid, [who.serverPid], processTree(who.browser.pid));
    const pages = await who.browser.pages().catch(() => []);
    samples.push({
      minute: (performance.now() - started) / 60_000,
      daemonRssMiB: f.daemonRssMiB,
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
