/**
 * A type's quiet check sent along with its text (action.ts checkWithInput), against a real
 * headless Chromium: the page holds the check at the input gate (lateTimers.ts) until the text
 * landed and the page's handlers ran; only input the browser delivered opens it; the worker's
 * word that the input was taken, or the disarming, opens it for a page that stops every input
 * event; and the report shows what the page's input handlers did.
 */
import type { ToolResult } from '@browser-agent/protocol';
import { describe, expect, it } from 'vitest';
import { handlers } from '../testing/handlers';
import { fakeContext } from '../testing/fakeContext';
import { commandsSent, openTab, type RealTab } from '../testing/realBrowser';
import { realBrowserWithPages } from '../testing/pageServer';
import {
  armLateTimers,
  disarmLateTimers,
  inputTaken,
  LATE_TIMERS_IDLE_AFTER_INPUT,
} from '../loading/lateTimers';

const FIELD = `<p id="out">Idle</p><input aria-label="Query">
<script>const show = (t) => { document.getElementById('out').textContent = t; };</script>`;

const PAGES: Record<string, string> = {
  // Its handler renders a suggestion on a short timer, as a search box does.
  '/suggest.html': `<!doctype html><title>Suggest</title>${FIELD}
<script>document.querySelector('input').addEventListener('input', (e) => {
  const value = e.target.value; setTimeout(() => show('Suggestions for ' + value), 30);
});</script>`,
  // Its own code stops every input event before anyone else hears it.
  '/deaf.html': `<!doctype html><title>Deaf</title>${FIELD}
<script>for (const type of ['beforeinput', 'input'])
  window.addEventListener(type, (e) => e.stopImmediatePropagation(), true);</script>`,
};

const env = realBrowserWithPages(PAGES);

function text(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

async function open(path: string): Promise<RealTab & { ctx: ReturnType<typeof fakeContext> }> {
  const real = await openTab(env.browser);
  await real.tab.cdp.send('Fetch.disable');
  const ctx = fakeContext([real.tab]);
  await handlers.browser_navigate({ url: `${env.origin}${path}` }, ctx);
  return { ...real, ctx };
}

/** The gated check's page side, started now; `settled()` says whether it has answered yet. */
function gatedCheck(tab: RealTab['tab']): { answer: Promise<unknown>; settled: () => boolean } {
  let done = false;
  const answer = tab.cdp
    .send('Runtime.evaluate', {
      expression: LATE_TIMERS_IDLE_AFTER_INPUT,
      awaitPromise: true,
      returnByValue: true,
    })
    .finally(() => {
      done = true;
    });
  return { answer, settled: () => done };
}

/** Long enough for a page task to run many times over; the gate must still be shut. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 150));

async function focusField(tab: RealTab['tab']): Promise<void> {
  await tab.cdp.send('Runtime.evaluate', { expression: "document.querySelector('input').focus()" });
}

describe("a type's check sent with its text waits at the input gate (#26)", () => {
  it('opens only once the text landed, and not for an input event the page made up', async () => {
    const { tab } = await open('/suggest.html');
    await focusField(tab);
    expect(await armLateTimers(tab.cdp)).toBe(true);
    const check = gatedCheck(tab);
    await pause();
    expect(check.settled()).toBe(false);
    // The page's own event (not trusted) leaves it shut.
    await tab.cdp.send('Runtime.evaluate', {
      expression:
        "document.querySelector('input').dispatchEvent(new Event('input', { bubbles: true }))",
    });
    await pause();
    expect(check.settled()).toBe(false);
    await tab.cdp.send('Input.insertText', { text: 'lamp' });
    await check.answer;
    // The handler's short timer was waited for too (the late timers, after the gate).
    const { result } = await tab.cdp.send('Runtime.evaluate', {
      expression: "document.getElementById('out').textContent",
      returnByValue: true,
    });
    expect(result.value).toBe('Suggestions for lamp');
  });

  it("opens on the worker's word for a page that stops every input event", async () => {
    const { tab } = await open('/deaf.html');
    await focusField(tab);
    expect(await armLateTimers(tab.cdp)).toBe(true);
    const check = gatedCheck(tab);
    await tab.cdp.send('Input.insertText', { text: 'lamp' });
    await pause();
    expect(check.settled()).toBe(false);
    inputTaken(tab.cdp);
    await check.answer;
    expect(check.settled()).toBe(true);
  });

  it('opens when the action is disarmed (it failed, timed out or met a dialog)', async () => {
    const { tab } = await open('/suggest.html');
    expect(await armLateTimers(tab.cdp)).toBe(true);
    const check = gatedCheck(tab);
    await pause();
    expect(check.settled()).toBe(false);
    disarmLateTimers(tab.cdp);
    await check.answer;
    expect(check.settled()).toBe(true);
  });

  it("reports what the field's input handler showed, on both kinds of page", async () => {
    for (const path of ['/suggest.html', '/deaf.html']) {
      const { ctx, tab } = await open(path);
      const sent = commandsSent(tab, Infinity);
      const snapshot = text(await handlers.browser_snapshot({}, ctx));
      const ref = snapshot
        .split('\n')
        .find((l) => l.includes('textbox "Query"'))
        ?.match(/\[(e\d+)\]/)?.[1];
      expect(ref).toBeDefined();
      const result = text(await handlers.browser_type({ ref: ref ?? '', text: 'lamp' }, ctx));
      expect(result).toContain('Typed "lamp" into');
      // The check went out with the text, before the browser answered the insert.
      const insert = sent.findIndex((c) => c.startsWith('Input.insertText'));
      const gated = sent.findIndex((c) => c.includes('afterInput()'));
      expect(insert).toBeGreaterThanOrEqual(0);
      expect(gated).toBeGreaterThan(insert);
      expect(sent.some((c) => c.includes('inputDone()'))).toBe(true);
      if (path === '/suggest.html') expect(result).toContain('Suggestions for lamp');
      else expect(result).not.toContain('Suggestions for');
    }
  });
});
