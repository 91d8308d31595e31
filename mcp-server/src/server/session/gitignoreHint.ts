/**
 * A project profile holds cookies and logins; committing it would leak them. When the project is
 * in a git work tree whose .gitignore files do not cover the profile directory, the agent and the
 * log are told which line to add (once per session: repeating it on every call would only cost
 * tokens). Outside a git work tree nothing can be committed, so nothing is said.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { PROJECT_PROFILE_DIRNAME } from '../../shared/profiles.js';

/**
 * The top of the git work tree holding `dir`, found by walking up to a `.git` (a directory, or a
 * file in a linked worktree or submodule); undefined outside one. No git process is spawned.
 */
export function gitWorkTreeOf(dir: string): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

function rulesIn(dir: string): string {
  try {
    return readFileSync(path.join(dir, '.gitignore'), 'utf8');
  } catch {
    return '';
  }
}

/**
 * The line to add to <project>/.gitignore, or undefined when the profile is already ignored or
 * the project is in no git work tree. Every .gitignore from the work tree's top down to the
 * project counts, a deeper one overriding a higher one as in git.
 */
export function gitignoreLineNeeded(project: string): string | undefined {
  const top = gitWorkTreeOf(project);
  if (top === undefined) return undefined;
  const levels = [top];
  for (const part of path.relative(top, path.resolve(project)).split(path.sep).filter(Boolean))
    levels.push(path.join(levels[levels.length - 1] ?? top, part));
  let ignored = false;
  for (const level of levels) {
    const profile = path.relative(level, path.join(project, PROJECT_PROFILE_DIRNAME));
    const verdict = ignore()
      .add(rulesIn(level))
      .test(`${profile.split(path.sep).join('/')}/`);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored ? undefined : `${PROJECT_PROFILE_DIRNAME}/`;
}

export function gitignoreHintText(project: string, line: string): string {
  return `Note: the browser profile (cookies, logins) is kept in ${path.join(project, PROJECT_PROFILE_DIRNAME)}, which ${path.join(project, '.gitignore')} does not ignore. Add this line to that .gitignore: ${line}`;
}
