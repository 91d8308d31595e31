/**
 * Which Chromium profile a launched browser uses. Precedence, most explicit first:
 * --user-data-dir, then --isolated (a temporary profile), then the project's own profile,
 * then one default profile under the user's cache directory.
 */
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

/** Inside the project, so cookies and logins live (and are removed) with it. */
export const PROJECT_PROFILE_DIRNAME = '.user-session-data-directory';

export type ProfileSource = 'user-data-dir' | 'isolated' | 'project' | 'default';

export interface ProfileChoice {
  source: ProfileSource;
  /** Undefined for isolated: the launcher makes a temporary one. */
  dir: string | undefined;
}

export interface ProfileOptions {
  userDataDir?: string | undefined;
  isolated: boolean;
}

/** $XDG_CACHE_HOME/browser-agent, else ~/.cache/browser-agent. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CACHE_HOME'] || path.join(homedir() || tmpdir(), '.cache');
  return path.join(base, 'browser-agent');
}

export function defaultProfileDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userCacheDir(env), 'profile');
}

export function projectProfileDir(project: string): string {
  return path.join(project, PROJECT_PROFILE_DIRNAME);
}

export function chooseProfile(
  options: ProfileOptions,
  project: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProfileChoice {
  if (options.userDataDir !== undefined)
    return { source: 'user-data-dir', dir: options.userDataDir };
  if (options.isolated) return { source: 'isolated', dir: undefined };
  if (project !== undefined) return { source: 'project', dir: projectProfileDir(project) };
  return { source: 'default', dir: defaultProfileDir(env) };
}
