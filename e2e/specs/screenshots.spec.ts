/**
 * Screenshots kept in the output directory: timestamped names, the oldest deleted first past the
 * configured count, and a file over the size cap not written at all.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk } from '../harness.js';
import { agentOn } from '../steps.js';

const TIMESTAMPED = /^shot-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-\d+)?\.png$/;

test('screenshots in the output directory get timestamped names and the oldest go first', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'shots');
  const config = path.join(sandbox.root, 'config.json');
  writeFileSync(config, JSON.stringify({ outputDir, screenshots: { maxFiles: 3 } }));
  // A file of the user's in the same directory is never counted or deleted.
  const client = await agentOn(bridge, site.url('/button.html'), {
    name: 'shots',
    flags: ['--config', config],
  });

  const saved: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const shot = await callOk(client, 'browser_take_screenshot', { filename: 'shot' });
    expect(shot.images).toHaveLength(1);
    const file = /Saved to (\S+)/.exec(shot.text)?.[1];
    if (file === undefined) throw new Error(`No "Saved to" in:\n${shot.text}`);
    expect(path.dirname(file)).toBe(outputDir);
    expect(path.basename(file)).toMatch(TIMESTAMPED);
    saved.push(path.basename(file));
    if (i === 0) writeFileSync(path.join(outputDir, 'notes.png'), 'mine');
  }
  expect(new Set(saved).size).toBe(5);
  const left = readdirSync(outputDir).sort();
  expect(left).toEqual([...saved.slice(2), 'notes.png'].sort());
});

test('a screenshot over the per-file cap is returned but not saved', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'capped');
  const client = await agentOn(bridge, site.url('/tall'), {
    name: 'capped',
    flags: ['--output-dir', outputDir],
    env: { BROWSER_AGENT_SCREENSHOT_MAX_BYTES: '1000' },
  });
  const shot = await callOk(client, 'browser_take_screenshot', { fullPage: true });
  expect(shot.images).toHaveLength(1);
  expect(shot.text).toContain('Not saved:');
  expect(shot.text).toContain('cap per file');
  expect(readdirSync(outputDir)).toEqual([]);
});
