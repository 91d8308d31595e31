import { describe, expect, it } from 'vitest';
import { armedWhile } from './action';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeTab } from '../testing/fakeContext';
import { navigationScript } from '../testing/fakePage';

function armablePage() {
  return fakeCdp({
    ...navigationScript(['http://127.0.0.1/']),
    'Runtime.evaluate': () => ({ result: { type: 'undefined' } }),
  });
}

const evaluated = (cdp: ReturnType<typeof armablePage>): string[] =>
  cdp.calls
    .filter((c) => c.method === 'Runtime.evaluate')
    .map((c) => String((c.params as { expression: string }).expression));

describe('armedWhile (#26: the action is armed while its target resolves)', () => {
  it('arms before the work runs, so both round trips overlap', async () => {
    const cdp = armablePage();
    let sentBeforeWork: string[] = [];
    await armedWhile(fakeTab(cdp), async () => {
      sentBeforeWork = cdp.calls.map((c) => c.method);
      return Promise.resolve();
    });
    expect(sentBeforeWork).toEqual(
      expect.arrayContaining(['Page.enable', 'Page.getFrameTree', 'Runtime.evaluate']),
    );
  });

  it("puts the page's timers back when the work fails before an action took the arming", async () => {
    const cdp = armablePage();
    await expect(
      armedWhile(fakeTab(cdp), () => Promise.reject(new Error('stale ref'))),
    ).rejects.toThrow('stale ref');
    const scripts = evaluated(cdp);
    expect(scripts).toHaveLength(2);
    expect(scripts[1]).toContain('restore()');
  });

  it('leaves the arming to the action that took it', async () => {
    const cdp = armablePage();
    await armedWhile(fakeTab(cdp), async (arming) => {
      (await arming.take()).dispose();
    });
    expect(evaluated(cdp)).toHaveLength(1);
  });
});
