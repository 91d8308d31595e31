import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkProjectDir } from './projectDir.js';

const root = mkdtempSync(path.join(tmpdir(), 'project-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('checkProjectDir', () => {
  it('accepts an existing writable directory and answers its real path', () => {
    const link = path.join(root, 'link');
    symlinkSync(root, link);
    expect(checkProjectDir(`${link}/`)).toEqual({ ok: true, dir: root, warnings: [] });
  });

  it('refuses relative, traversing, missing and non-directory paths with a hint', () => {
    const file = path.join(root, 'file');
    writeFileSync(file, '');
    for (const [raw, message] of [
      ['app', /absolute/],
      ['', /empty/],
      [`${root}/../${path.basename(root)}`, /"\.\."/],
      [path.join(root, 'missing'), /does not exist/],
      [file, /not a directory/],
    ] as const) {
      const check = checkProjectDir(raw);
      expect(check.ok, raw).toBe(false);
      if (!check.ok) {
        expect(check.message).toMatch(message);
        expect(check.hint.length).toBeGreaterThan(10);
      }
    }
  });

  it('warns on Windows past 260 characters', () => {
    let deep = root;
    while (deep.length <= 260) deep = path.join(deep, 'a'.repeat(40));
    mkdirSync(deep, { recursive: true });
    const check = checkProjectDir(deep, 'win32');
    expect(check.ok && check.warnings[0]).toMatch(/260/);
    expect(checkProjectDir(deep, 'linux')).toMatchObject({ ok: true, warnings: [] });
  });
});
