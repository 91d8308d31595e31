import type { ToolResult } from '@browser-agent/protocol';
import { describe, expect, it } from 'vitest';
import { handlers } from '../testing/handlers';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeContext, fakeTab } from '../testing/fakeContext';

function textOf(result: ToolResult): string {
  const part = result.content[0];
  return part?.type === 'text' ? part.text : '';
}

/** A page whose body text is read from `page.text` at each poll. */
function pageReading(page: { text: string }) {
  let polls = 0;
  const cdp = fakeCdp({
    'Runtime.evaluate': ({ expression }) => {
      polls += 1;
      const wanted = JSON.parse(
        expression.slice(expression.indexOf('.includes(') + 10, -1),
      ) as string;
      return { result: { type: 'boolean', value: page.text.includes(wanted) } };
    },
  });
  return { ctx: fakeContext([fakeTab(cdp)]), polls: () => polls };
}

describe('browser_wait_for', () => {
  it('needs exactly one of text, textGone and time', async () => {
    const { ctx, polls } = pageReading({ text: '' });
    for (const args of [{}, { text: 'a', time: 1 }, { text: 'a', textGone: 'b' }]) {
      await expect(handlers.browser_wait_for(args, ctx)).rejects.toMatchObject({
        code: 'INVALID_ARGS',
      });
    }
    expect(polls()).toBe(0);
  });

  it('polls until the text shows up', async () => {
    const page = { text: 'Loading' };
    const { ctx, polls } = pageReading(page);
    setTimeout(() => {
      page.text = 'Loaded: 3 results';
    }, 250);
    const result = await handlers.browser_wait_for({ text: '3 results' }, ctx);
    expect(textOf(result)).toMatch(/^Text "3 results" appeared after 0\.\d s\.$/);
    expect(polls()).toBeGreaterThanOrEqual(3);
    expect(polls()).toBeLessThan(10);
  });

  it('waits for text to go and times out when it stays', async () => {
    const { ctx } = pageReading({ text: 'Spinner' });
    await expect(
      handlers.browser_wait_for({ textGone: 'Spinner', timeout: 0.25 }, ctx),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'Text "Spinner" did not disappear within 0.25 s.',
    });
    const gone = await handlers.browser_wait_for({ textGone: 'Saved' }, ctx);
    expect(textOf(gone)).toMatch(/^Text "Saved" is gone after 0\.\d s\.$/);
  });

  it('sleeps for the given time without touching the page', async () => {
    const { ctx, polls } = pageReading({ text: '' });
    const started = performance.now();
    await handlers.browser_wait_for({ time: 0.2 }, ctx);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(polls()).toBe(0);
  });
});
