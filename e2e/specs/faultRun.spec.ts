/**
 * The fault-injection run (#16). Its short form runs in the suite: 3 sessions, each fault once.
 * The long form is `pnpm bench:faults` (FAULT_SESSIONS sessions, the faults FAULT_REPEAT times,
 * figures written to FAULT_REPORT).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../harness.js';
import { startFaultSite } from '../fixtures/faultSite.js';
import { ALL_FAULTS, runFaults, type FaultKind } from '../faultRun.js';

const SESSIONS = Number(process.env.FAULT_SESSIONS ?? 3);
const REPEAT = Number(process.env.FAULT_REPEAT ?? 1);
const PLAN: readonly FaultKind[] = Array.from({ length: REPEAT }, () =>
  process.env.FAULT_PLAN ? (process.env.FAULT_PLAN.split(',') as FaultKind[]) : ALL_FAULTS,
).flat();

test(`${SESSIONS} sessions survive every fault: one answer per call, no leaks, nothing left behind`, async ({
  bridge,
  sandbox,
}) => {
  // About 6 s per fault with 3 sessions, and the tabs' grace at the end.
  test.setTimeout(60_000 + PLAN.length * SESSIONS * 6_000);
  const faults = await startFaultSite();
  try {
    const configPath = path.join(sandbox.root, 'faults.json');
    writeFileSync(configPath, JSON.stringify({ timeouts: { navigationMs: 1_500 } }));
    const startedAt = Date.now();
    const figures = await runFaults({
      bridge,
      sandbox,
      faults,
      sessions: SESSIONS,
      plan: PLAN,
      configPath,
      log: (line) => console.log(line),
      trace: process.env.FAULT_TRACE === '1',
    });
    const report = { ...figures, seconds: Math.round((Date.now() - startedAt) / 1000) };
    if (process.env.FAULT_REPORT)
      writeFileSync(process.env.FAULT_REPORT, JSON.stringify(report, null, 2));
    expect(figures.failures).toEqual([]);
    expect(figures.faultsSurvived).toBe(figures.faultsInjected);
    expect(figures.doubleAnswers).toBe(0);
    // Exactly one answer for every call but those the harness cancelled or cut by killing their
    // server (the protocol has no answer for those).
    expect(figures.answered).toBe(figures.calls - figures.cancelled - figures.cutByKill);
    expect(figures.leaks).toBe(0);
    // The sessions' tabs close once they end (after their grace): no tab, and so no debugger
    // attachment, is left behind.
    await expect
      .poll(
        async () =>
          (await bridge.tabLayout()).tabs
            .map((t) => t.url)
            .filter((url) => url.startsWith(faults.origin) || url === 'about:blank'),
        { timeout: 30_000 },
      )
      .toEqual([]);
  } finally {
    await faults.close();
  }
});
