/**
 * The recording of what an agent did (#19): one step per state-changing call with a picture of
 * the tab after it (none for read-only calls), a marker where the mouse was pressed, a bound per
 * session, and a WebM export made in the panel.
 */
import type { Page } from '@playwright/test';
import { callOk, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

/** shared/recordings.ts MAX_STEPS_PER_SESSION */
const MAX_STEPS_PER_SESSION = 30;
const WEBM_MAGIC = '1a45dfa3';

async function openRecording(panel: Page, client: string) {
  const item = panel.locator('#recordings > li').filter({ hasText: client });
  await expect(item).toHaveCount(1);
  const details = item.locator('details');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
    await item.locator('summary').click();
  return item;
}

test.describe('the recording', () => {
  test('state-changing calls leave a step with a picture, read-only calls none; a click has its marker; the export plays', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    // A step's picture yields to the session's next call (#26.1): the test lets each state-changing
    // call's step land before the next call, so both steps have their picture (CI once saw the
    // click's wait_for come first, and the click step had no picture and no marker).
    const client = await agentOn(bridge, site.url('/button.html'), { name: 'claude-code' });
    const item = await openRecording(panel, 'Claude Code');
    const steps = item.locator('.steps > li');
    await expect(steps).toHaveCount(1);
    await callOk(client, 'browser_snapshot', {});
    await callOk(client, 'browser_click', { role: 'button', name: 'Click me' });
    await expect(steps).toHaveCount(2);
    await callOk(client, 'browser_wait_for', { text: 'Clicked 1 time' });
    await callOk(client, 'browser_take_screenshot', {});

    await expect(item.locator('summary')).toContainText('2 steps');
    await expect(steps).toHaveCount(2);
    await expect(steps.locator('img'), 'each step has its picture').toHaveCount(2);
    expect(await steps.evaluateAll((lis) => lis.map((li) => li.dataset['tool']))).toEqual([
      'browser_navigate',
      'browser_click',
    ]);
    await expect(steps.nth(1).locator('.what')).toHaveText(/^Clicked button "Click me" on /);
    // Each picture is a real image of the tab after the call.
    for (const img of await steps.locator('img').all()) {
      await expect
        .poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(100);
    }
    // The marker sits where the button is on the picture.
    const marker = steps.nth(1).locator('.marker');
    await expect(marker).toHaveCount(1);
    const tab = await bridge.pageWithUrl(site.url('/button.html'));
    const button = await tab.locator('#button').boundingBox();
    const viewport = await tab.evaluate(() => ({ w: innerWidth, h: innerHeight }));
    const left = parseFloat(
      (await marker.getAttribute('style'))?.match(/left: ([\d.]+)%/)?.[1] ?? 'NaN',
    );
    const top = parseFloat(
      (await marker.getAttribute('style'))?.match(/top: ([\d.]+)%/)?.[1] ?? 'NaN',
    );
    expect(button).not.toBeNull();
    if (button) {
      expect(left).toBeGreaterThanOrEqual((button.x / viewport.w) * 100 - 1);
      expect(left).toBeLessThanOrEqual(((button.x + button.width) / viewport.w) * 100 + 1);
      expect(top).toBeGreaterThanOrEqual((button.y / viewport.h) * 100 - 1);
      expect(top).toBeLessThanOrEqual(((button.y + button.height) / viewport.h) * 100 + 1);
    }
    await expect(steps.nth(0).locator('.marker'), 'a navigation has no click').toHaveCount(0);

    // Export: a WebM made here in the panel, that a video element plays for a while.
    await item.getByRole('button', { name: 'Export video' }).click();
    const link = item.locator('a.download');
    await expect(link).toHaveAttribute('download', /\.webm$/, { timeout: 20_000 });
    const file = await panel.evaluate(
      async (href) => {
        const bytes = new Uint8Array(await (await fetch(href)).arrayBuffer());
        return {
          size: bytes.length,
          head: [...bytes.slice(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(''),
        };
      },
      (await link.getAttribute('href')) ?? '',
    );
    expect(file.head, 'an EBML (WebM) header').toBe(WEBM_MAGIC);
    expect(file.size).toBeGreaterThan(1_000);
    const duration = await item.locator('video').evaluate(async (v) => {
      const video = v as HTMLVideoElement;
      if (video.readyState < 1)
        await new Promise((resolve) =>
          video.addEventListener('loadedmetadata', resolve, { once: true }),
        );
      // MediaRecorder writes no duration into the file: seeking to the end makes the element find it.
      if (!Number.isFinite(video.duration)) {
        const found = new Promise((resolve) =>
          video.addEventListener('durationchange', resolve, { once: true }),
        );
        video.currentTime = 1e9;
        await found;
      }
      return video.duration;
    });
    expect(duration, 'two steps of about 1.2 s each').toBeGreaterThan(1.5);

    // Delete forgets it.
    await item.getByRole('button', { name: 'Delete' }).click();
    await expect(panel.locator('#recordings > li').filter({ hasText: 'Claude Code' })).toHaveCount(
      0,
    );
  });

  test(`a session keeps its newest ${MAX_STEPS_PER_SESSION} steps; the oldest go first`, async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    const client = await agentOn(bridge, site.url('/button.html'), { name: 'busy-agent' });
    const clicks = MAX_STEPS_PER_SESSION + 3;
    for (let i = 0; i < clicks; i += 1)
      await callOk(client, 'browser_click', { role: 'button', name: 'Click me' });
    await expect((await bridge.pageWithUrl(site.url('/button.html'))).locator('#out')).toHaveText(
      `Clicked ${clicks} times`,
    );

    const item = await openRecording(panel, 'busy-agent');
    await expect(item.locator('summary')).toContainText(`${MAX_STEPS_PER_SESSION} steps`);
    const steps = item.locator('.steps > li');
    await expect(steps).toHaveCount(MAX_STEPS_PER_SESSION);
    // The navigation (the oldest step) was dropped; only clicks are left.
    expect(new Set(await steps.evaluateAll((lis) => lis.map((li) => li.dataset['tool'])))).toEqual(
      new Set(['browser_click']),
    );
  });
});
