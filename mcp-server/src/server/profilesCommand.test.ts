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
});
