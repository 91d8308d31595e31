import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CallLog, redact } from './callLog.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('CallLog', () => {
  it('writes the call before its result, with typed text redacted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wal-'));
    dirs.push(dir);
    const log = new CallLog({ dir, maxFileBytes: 1_000_000, keepFiles: 2 });
    log.call({
      id: '1',
      sessionId: 's',
      tool: 'browser_type',
      args: { ref: 'e3', text: 'hunter2' },
    });
    log.result({ id: '1', sessionId: 's', tool: 'browser_type', code: 'ok', ms: 12 });
    const lines = readFileSync(join(dir, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l['phase'])).toEqual(['call', 'result']);
    expect(lines[0]).toMatchObject({
      tool: 'browser_type',
      args: { ref: 'e3', text: '[redacted]' },
    });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });

  it('rotates at the size cap and keeps a bounded number of files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wal-'));
    dirs.push(dir);
    const log = new CallLog({ dir, maxFileBytes: 500, keepFiles: 2 });
    for (let i = 0; i < 60; i++)
      log.call({ id: String(i), sessionId: 's', tool: 'browser_snapshot', args: {} });
    expect(readdirSync(dir).sort()).toEqual(['calls.1.jsonl', 'calls.2.jsonl', 'calls.jsonl']);
    const last = readFileSync(join(dir, 'calls.jsonl'), 'utf8');
    expect(last.length).toBeLessThanOrEqual(500);
    expect(last).toContain('"id":"59"');
  });

  it('redacts nested fields and cuts long strings', () => {
    expect(
      redact({ fields: [{ ref: 'e1', value: 'secret' }], function: 'x'.repeat(1000) }),
    ).toEqual({
      fields: [{ ref: 'e1', value: '[redacted]' }],
      function: `${'x'.repeat(300)}…`,
    });
  });
});
