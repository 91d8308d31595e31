import { describe, expect, it } from 'vitest';
import { acrossFrames } from './frames';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeTab } from '../testing/fakeContext';

/** A tab of one frame whose frame tree is answered only when told to. */
function tabWithMainFrame(mainId: string) {
  const held: (() => void)[] = [];
  const order: string[] = [];
  const cdp = fakeCdp({
    'Page.getFrameTree': () =>
      new Promise((resolve) =>
        held.push(() => {
          order.push('frames listed');
          resolve({ frameTree: { frame: { id: mainId } } } as never);
        }),
      ),
  });
  const tab = fakeTab(cdp);
  const answer = (): void => {
    for (const release of held.splice(0)) release();
  };
  return { tab, order, answer, cdp };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** acrossFrames with work that notes where it ran, the frame tree answered after a tick. */
async function across(page: ReturnType<typeof tabWithMainFrame>): Promise<unknown> {
  const running = acrossFrames(page.tab, 50, (frame) => {
    page.order.push(`work in ${frame.frameId}`);
    return Promise.resolve(frame.frameId);
  });
  await tick();
  page.answer();
  return (await running).values;
}

describe('acrossFrames (#26: an outline of a page without iframes is one round trip)', () => {
  it("starts the main frame's work while the frames are listed, and uses it", async () => {
    const page = tabWithMainFrame('main');
    page.tab.state.mainFrameId = 'main';
    expect(await across(page)).toEqual(['main']);
    expect(page.order).toEqual(['work in main', 'frames listed']);
  });

  it('drops the work done for a main frame that is no longer the main frame', async () => {
    const page = tabWithMainFrame('new-main');
    page.tab.state.mainFrameId = 'old-main';
    expect(await across(page)).toEqual(['new-main']);
    expect(page.order).toEqual(['work in old-main', 'frames listed', 'work in new-main']);
    expect(page.tab.state.mainFrameId).toBe('new-main');
  });

  it('lists first on a tab whose frames were never listed', async () => {
    const page = tabWithMainFrame('main');
    expect(await across(page)).toEqual(['main']);
    expect(page.order).toEqual(['frames listed', 'work in main']);
  });
});
