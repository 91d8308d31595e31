import { describe, expect, it } from 'vitest';
import { armedWhile } from './action';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeTab } from '../testing/fakeContext';
import { MAIN_FRAME_ID, navigationScript } from '../testing/fakePage';

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
  it("arms right after the work's first commands, so the page answers them first", async () => {
    const cdp = armablePage();
    const tab = fakeTab(cdp);
    tab.state.mainFrameId = MAIN_FRAME_ID;
    let sentBeforeAwait: string[] = [];
    let sentAfterAwait: string[] = [];
    await armedWhile(tab, async () => {
      // The target's check: sent before the work's first await (resolveSteppedTarget, a ref).
      const check = cdp.send('DOM.describeNode', {});
      sentBeforeAwait = cdp.calls.map((c) => c.method);
      await check.catch(() => undefined);
      sentAfterAwait = cdp.calls.map((c) => c.method);
    });
    expect(sentBeforeAwait).toEqual(['DOM.describeNode']);
    // The main frame is known and the Page domain is on since the tab was attached: the tree is
    // asked for (a prerendered page may have taken the tab), Page.enable is not sent again.
    expect(sentAfterAwait).toEqual(['DOM.describeNode', 'Page.getFrameTree', 'Runtime.evaluate']);
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
      (await arming.take()).watch.dispose();
    });
    expect(evaluated(cdp)).toHaveLength(1);
  });
});
