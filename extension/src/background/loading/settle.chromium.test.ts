/**
 * The DOM-quiet check in a real headless Chromium (#26): the overlay's host coming or going is not
 * the page changing, anything else is.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAY_HOST_ID } from '../../shared/messages';
import { launchChromium, openTab } from '../testing/realBrowser';
import { waitForDomQuiet } from './settle';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

/**
 * Appends `element` while the check watches (the page's setTimeout appends it when the check sets
 * its first-look timer, after its observer started) and marks the page `late` 30 ms later: whether
 * the check had answered before the mark says whether it waited a quiet window for the append.
 */
async function quietAfterAppending(element: string): Promise<boolean> {
  const { page, tab } = await openTab(browser);
  try {
    await page.setContent('<!doctype html><title>Quiet</title><p>Page</p>');
    await page.evaluate(`(() => {
      const native = window.setTimeout;
      let armed = true;
      window.setTimeout = function (handler, ms, ...rest) {
        if (armed) {
          armed = false;
          const el = document.createElement('div');
          el.id = ${JSON.stringify(element)};
          document.documentElement.append(el);
          native.call(window, () => { window.late = true; }, 30);
        }
        return native.call(window, handler, ms, ...rest);
      };
    })()`);
    await waitForDomQuiet(tab.cdp);
    return await page.evaluate<boolean>('window.late === true');
  } finally {
    await page.close();
  }
}

describe('the DOM-quiet check', () => {
  it("does not wait a quiet window for the overlay's host, which renders right after DOMContentLoaded", async () => {
    expect(await quietAfterAppending(OVERLAY_HOST_ID)).toBe(false);
  });

  it('waits a quiet window after the page itself changed', async () => {
    expect(await quietAfterAppending('page-own')).toBe(true);
  });
});
