import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAge, runProfilesCommand } from './profilesCommand.js';

describe('profiles command', () => {
  it('reads ages as a number and a unit', () => {
    expect(parseAge('30d')).toBe(30 * 86_400_000);
    expect(parseAge('12h')).toBe(12 * 3_600_000);
    expect(parseAge('0s')).toBe(0);
    for (const bad of ['30', 'd', '1w', '-1d', '1.5d']) expect(parseAge(bad), bad).toBeUndefined();
  });

  it('refuses a prune without an age and an unknown subcommand, with the usage', async () => {
    const err: string[] = [];
    const env = { BROWSER_AGENT_HOME: '/nonexistent-browser-agent-home' };
    const push = (t: string) => err.push(t);
    expect(await runProfilesCommand(['prune'], () => undefined, push, env)).toBe(2);
    expect(await runProfilesCommand(['delete'], () => undefined, push, env)).toBe(2);
    expect(err.join('')).toContain('--older-than <age>');
  });

  it('lists the default profile, in use while a browser holds its lock, and never prunes it', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'profiles-command-'));
    const env = { BROWSER_AGENT_HOME: path.join(root, 'home'), XDG_CACHE_HOME: root };
    const run = async (argv: string[]) => {
      const out: string[] = [];
      expect(
        await runProfilesCommand(
          argv,
          (t) => out.push(t),
          () => undefined,
          env,
        ),
      ).toBe(0);
      return out.join('');
    };
    expect(await run(['list'])).toBe('No project profiles recorded.\n');

    const profile = path.join(root, 'browser-agent', 'profile');
    mkdirSync(profile, { recursive: true });
    writeFileSync(path.join(profile, 'Local State'), '{}');
    const [shared, none, ...rest] = (await run(['list'])).split('\n');
    expect(shared).toMatch(/^\S+Z {2}idle {5}/);
    expect(shared).toContain(`idle     ${profile}  (default profile)`);
    expect([none, ...rest]).toEqual(['No project profiles recorded.', '']);
    symlinkSync(`${hostname()}-${process.pid}`, path.join(profile, 'SingletonLock'));
    expect(await run(['list'])).toContain(`in use   ${profile}  (default profile)`);

    expect(await run(['prune', '--older-than', '0s'])).toBe('0 profile(s) removed.\n');
    expect(existsSync(profile)).toBe(true);
  });
});
