import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from './screenshotFiles.js';

const limits = { maxFileBytes: 1000, maxFiles: 100, maxTotalBytes: 100_000 };

describe('saveScreenshot', () => {
  it('keeps the total size under its limit, deleting the oldest first', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ba-shots-'));
    const saved: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const out = await saveScreenshot(dir, 's', 'png', Buffer.alloc(400), {
        ...limits,
        maxTotalBytes: 1000,
      });
      if (!out.saved) throw new Error(out.reason);
      saved.push(path.basename(out.file));
    }
    expect(readdirSync(dir).sort()).toEqual(saved.slice(2).sort());
  });
  it('refuses a file over the cap and leaves files it did not name alone', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ba-shots-'));
    writeFileSync(path.join(dir, 'mine.png'), 'x');
    const out = await saveScreenshot(dir, 's', 'png', Buffer.alloc(1001), limits);
    if (out.saved) throw new Error('an oversized file was saved');
    expect(out.reason).toContain('cap per file');
    await saveScreenshot(dir, 's', 'png', Buffer.alloc(10), { ...limits, maxFiles: 1 });
    await saveScreenshot(dir, 's', 'png', Buffer.alloc(10), { ...limits, maxFiles: 1 });
    expect(readdirSync(dir).filter((n) => n !== 'mine.png')).toHaveLength(1);
    expect(readdirSync(dir)).toContain('mine.png');
  });
});
