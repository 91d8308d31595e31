import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitignoreLineNeeded } from './gitignoreHint.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(gitignore?: string): string {
  dir = mkdtempSync(path.join(tmpdir(), 'gitignore-'));
  if (gitignore !== undefined) writeFileSync(path.join(dir, '.gitignore'), gitignore);
  return dir;
}

describe('gitignoreLineNeeded', () => {
  it('asks for the line when there is no .gitignore or it does not cover the profile', () => {
    expect(gitignoreLineNeeded(project())).toBe('.user-session-data-directory/');
    expect(gitignoreLineNeeded(project('node_modules/\n'))).toBe('.user-session-data-directory/');
    expect(
      gitignoreLineNeeded(project('.user-session-data-directory/\n!.user-session-data-directory/')),
    ).toBe('.user-session-data-directory/');
  });

  it('is satisfied by any rule git would apply to the directory', () => {
    for (const rules of [
      '.user-session-data-directory/',
      '.user-session-data-directory',
      '.*',
      '/.user-*/',
    ])
      expect(gitignoreLineNeeded(project(rules)), rules).toBeUndefined();
  });
});
