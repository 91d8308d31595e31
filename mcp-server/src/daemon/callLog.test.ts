import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findContract } from '@browser-agent/protocol';
import { CallLog, redact } from './callLog.js';
import { recentCalls } from './recentCalls.js';

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
      redact(
        { fields: [{ ref: 'e1', value: 'secret' }], function: 'x'.repeat(1000) },
        findContract('browser_fill_form'),
      ),
    ).toEqual({
      fields: [{ ref: 'e1', value: '[redacted]' }],
      function: `${'x'.repeat(300)}…`,
    });
  });

  it('hides what the contract says is typed, and nothing by a list of its own', () => {
    const args = { text: 'shown', note: 'typed', steps: [] };
    expect(redact(args, { typedArgs: ['note'] })).toEqual({ ...args, note: '[redacted]' });
    expect(redact(args, { secretArgs: ['text'] })).toEqual({ ...args, text: '[redacted]' });
    // A batch's steps are hidden by their own tools' contracts.
    const batch = {
      steps: [
        { tool: 'browser_type', args: { ref: 'e1', text: 'hunter2' } },
        { tool: 'browser_click', args: { ref: 'e2' } },
      ],
    };
    expect(redact(batch, findContract('browser_batch'))).toEqual({
      steps: [
        { tool: 'browser_type', args: { ref: 'e1', text: '[redacted]' } },
        { tool: 'browser_click', args: { ref: 'e2' } },
      ],
    });
  });
});

describe('recentCalls', () => {
  it("gives back one session's last calls with their outcome, oldest first, redacted", () => {
    const dir = mkdtempSync(join(tmpdir(), 'wal-'));
    dirs.push(dir);
    const log = new CallLog({ dir, maxFileBytes: 2_000, keepFiles: 2 });
    for (let i = 0; i < 14; i++) {
      log.call({
        id: `a${i}`,
        sessionId: 'mine',
        tool: 'browser_type',
        args: { n: i, text: 'pw' },
      });
      log.result({ id: `a${i}`, sessionId: 'mine', tool: 'browser_type', code: 'ok', ms: i });
      log.call({ id: `b${i}`, sessionId: 'other', tool: 'browser_snapshot', args: {} });
    }
    log.call({ id: 'cut', sessionId: 'mine', tool: 'browser_click', args: { ref: 'e1' } });
    const recent = recentCalls(dir, 'mine', 4);
    expect(recent.map((c) => c.tool)).toEqual([
      'browser_type',
      'browser_type',
      'browser_type',
      'browser_click',
    ]);
    expect(recent[2]).toMatchObject({ args: '{"n":13,"text":"[redacted]"}', code: 'ok', ms: 13 });
    expect(recent[3]?.code, 'a call cut off by a crash has no outcome').toBeUndefined();
    expect(JSON.stringify(recent)).not.toContain('pw');
  });
});
