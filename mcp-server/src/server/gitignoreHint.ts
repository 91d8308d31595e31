/**
 * A project profile holds cookies and logins; committing it would leak them. When the project's
 * .gitignore does not cover the profile directory, the agent and the log are told which line to
 * add (once per session: repeating it on every call would only cost tokens).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { PROJECT_PROFILE_DIRNAME } from '../shared/profiles.js';

/** The line to add to <project>/.gitignore, or undefined when the profile is already ignored. */
export function gitignoreLineNeeded(project: string): string | undefined {
  let rules = '';
  try {
    rules = readFileSync(path.join(project, '.gitignore'), 'utf8');
  } catch {
    // No .gitignore: nothing is ignored yet.
  }
  const ignored = ignore().add(rules).ignores(`${PROJECT_PROFILE_DIRNAME}/`);
  return ignored ? undefined : `${PROJECT_PROFILE_DIRNAME}/`;
}

export function gitignoreHintText(project: string, line: string): string {
  return `Note: the browser profile (cookies, logins) is kept in ${path.join(project, PROJECT_PROFILE_DIRNAME)}, which ${path.join(project, '.gitignore')} does not ignore. Add this line to that .gitignore: ${line}`;
}
