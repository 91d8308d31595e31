/**
 * The full snapshot of the bench's ~5,000-element page (issue #8): every control keeps its line
 * with role, name and ref, and the whole stays within budget. Set SNAPSHOT_DUMP=<file> to write
 * it out and look where the characters go.
 */
import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bigPageInteractive } from '../../../../bench/fixtures/bigPage';
import { startFixtureSite, type FixtureSite } from '../../../../bench/fixtures/server';
import { formatOutlineLines } from './format';
import { takeOutline } from './tabOutline';
import { launchChromium, openTab } from '../testing/realBrowser';

/** Issue #8's budget; the outline alone is about 77.9k (the tool's header and fence add ~150). */
const MAX_CHARS = 80_000;

let browser: Browser;
let site: FixtureSite;

beforeAll(async () => {
  browser = await launchChromium();
  site = await startFixtureSite();
});

afterAll(async () => {
  await browser.close();
  await site.close();
});

it('keeps every control of the big page with its role, name and ref, within budget', async () => {
  const real = await openTab(browser);
  await real.page.goto(site.url('/big.html'));
  const text = formatOutlineLines(await takeOutline(real.tab)).join('\n');
  const dump = process.env['SNAPSHOT_DUMP'];
  if (dump !== undefined) writeFileSync(dump, text);
  const lines = new Set(text.split('\n').map((line) => line.trim().replace(/ \[e\d+\]/, '')));
  const missing = bigPageInteractive().filter(
    ({ role, name }) => !lines.has(`- ${role} "${name}"`),
  );
  expect(missing).toEqual([]);
  expect(text.match(/\[e\d+\]/g)?.length).toBeGreaterThanOrEqual(bigPageInteractive().length);
  expect(text.length).toBeLessThanOrEqual(MAX_CHARS);
}, 60_000);
