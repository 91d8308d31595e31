import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitignoreLineNeeded, gitWorkTreeOf } from './gitignoreHint.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A project dir at the top of a git work tree (unless `git` is false), with its .gitignore. */
function project(gitignore?: string, { git = true } = {}): string {
  dir = mkdtempSync(path.join(tmpdir(), 'gitignore-'));
  if (git) mkdirSync(path.join(dir, '.git'));
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

  it('says nothing outside a git work tree, where nothing can be committed', () => {
    expect(gitignoreLineNeeded(project(undefined, { git: false }))).toBeUndefined();
    expect(gitignoreLineNeeded(project('node_modules/\n', { git: false }))).toBeUndefined();
  });

  it('reads the .gitignore files from the top of the work tree down to a nested project', () => {
    const top = project('**/.user-session-data-directory/\n');
    const app = path.join(top, 'packages', 'app');
    mkdirSync(app, { recursive: true });
    expect(gitignoreLineNeeded(app), 'ignored by the top .gitignore').toBeUndefined();

    writeFileSync(path.join(top, 'packages', '.gitignore'), '!app/.user-session-data-directory/');
    expect(gitignoreLineNeeded(app), 'un-ignored below').toBe('.user-session-data-directory/');

    writeFileSync(path.join(app, '.gitignore'), '.user-session-data-directory/');
    expect(gitignoreLineNeeded(app), 'ignored again by the project').toBeUndefined();
  });
});

describe('gitWorkTreeOf', () => {
  it('walks up to a .git directory or a .git file (a linked worktree)', () => {
    const top = project(undefined, { git: false });
    const deep = path.join(top, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(gitWorkTreeOf(deep)).toBeUndefined();
    writeFileSync(path.join(top, 'a', '.git'), 'gitdir: /elsewhere/.git/worktrees/a\n');
    expect(gitWorkTreeOf(deep)).toBe(path.join(top, 'a'));
    mkdirSync(path.join(deep, '.git'));
    expect(gitWorkTreeOf(deep)).toBe(deep);
  });
});
