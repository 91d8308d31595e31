import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, callToolUntyped, expect, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';
import {
  LAUNCH,
  PROFILE_DIRNAME,
  launchedProfiles,
  makeProject,
  profileExists,
  runBin,
  stopDaemons,
} from '../projects.js';

const SET_STATE =
  "() => { document.cookie = 'kept=yes; max-age=86400; path=/'; localStorage.setItem('kept', 'stored'); return 'set'; }";
const READ_STATE = "() => `cookie:${document.cookie} local:${localStorage.getItem('kept')}`";

test.describe('projects in launch mode', () => {
  test('a cookie and a localStorage value survive a restart of the bridge and the browser', async ({
    sandbox,
    site,
  }) => {
    const app = await makeProject(sandbox, 'app', `${PROFILE_DIRNAME}/\n`);
    const url = site.url('/button.html');

    const first = await sandbox.startServer({
      name: 'run-1',
      flags: [...LAUNCH, '--project', app],
    });
    await callOk(first, 'browser_navigate', { url });
    await callOk(first, 'browser_evaluate', { function: SET_STATE });
    expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);
    await first.close();
    await stopDaemons(sandbox);

    // The second run names the project through the first call's projectPath instead.
    const second = await sandbox.startServer({ name: 'run-2', flags: LAUNCH });
    await callToolUntyped(second, 'browser_navigate', { url, projectPath: app });
    const state = await callOk(second, 'browser_evaluate', { function: READ_STATE });
    expect(state.text).toContain('kept=yes');
    expect(state.text).toContain('local:stored');
    expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);
  });

  test('two projects run two browsers with separate cookies; two clients on one project share one', async ({
    sandbox,
    site,
  }) => {
    const [a, b] = await Promise.all([
      makeProject(sandbox, 'a', `${PROFILE_DIRNAME}/\n`),
      makeProject(sandbox, 'b', `${PROFILE_DIRNAME}/\n`),
    ]);
    const url = site.url('/button.html');
    const a1 = await sandbox.startServer({ name: 'a-1', flags: [...LAUNCH, '--project', a] });
    const b1 = await sandbox.startServer({ name: 'b-1', flags: [...LAUNCH, '--project', b] });
    await callOk(a1, 'browser_navigate', { url });
    await callOk(b1, 'browser_navigate', { url });
    await callOk(a1, 'browser_evaluate', {
      function: "() => { document.cookie = 'who=a; max-age=600; path=/'; return 1; }",
    });
    await callOk(b1, 'browser_evaluate', {
      function: "() => { document.cookie = 'who=b; max-age=600; path=/'; return 1; }",
    });

    const a2 = await sandbox.startServer({ name: 'a-2', flags: [...LAUNCH, '--project', a] });
    await callOk(a2, 'browser_navigate', { url });
    const cookieOf = async (client: typeof a1) =>
      (await callOk(client, 'browser_evaluate', { function: '() => document.cookie' })).text;
    expect(await cookieOf(a2)).toContain('who=a');
    expect(await cookieOf(a2)).not.toContain('who=b');
    expect(await cookieOf(b1)).toContain('who=b');
    expect(await cookieOf(b1)).not.toContain('who=a');

    // One browser per project, however many clients: no second browser on a's profile.
    expect(launchedProfiles(sandbox).sort()).toEqual(
      [path.join(a, PROFILE_DIRNAME), path.join(b, PROFILE_DIRNAME)].sort(),
    );
    const tabs = (await callOk(a2, 'browser_tabs', { action: 'list' })).text;
    expect(tabs).toContain(url);
  });

  test('profile precedence: --user-data-dir, then --isolated, then the project, then the default', async ({
    sandbox,
    site,
  }) => {
    const app = await makeProject(sandbox, 'app', `${PROFILE_DIRNAME}/\n`);
    const own = path.join(sandbox.root, 'own-profile');
    const cache = path.join(sandbox.root, 'cache');
    const url = site.url('/button.html');
    const runWith = async (flags: string[], whileRunning = () => {}): Promise<string[]> => {
      const client = await sandbox.startServer({
        name: flags.join(' '),
        flags: [...LAUNCH, ...flags],
        env: { XDG_CACHE_HOME: cache },
      });
      await callOk(client, 'browser_navigate', { url });
      const profiles = launchedProfiles(sandbox);
      whileRunning();
      await client.close();
      await stopDaemons(sandbox);
      return profiles;
    };

    expect(await runWith(['--user-data-dir', own, '--isolated', '--project', app])).toEqual([own]);
    const isolated = await runWith(['--isolated', '--project', app]);
    expect(isolated).toHaveLength(1);
    expect(isolated[0]).toContain(`${path.sep}browser-agent-profile-`);
    expect(profileExists(app), 'neither run may touch the project profile').toBe(false);
    expect(await runWith(['--project', app])).toEqual([path.join(app, PROFILE_DIRNAME)]);
    const shared = path.join(cache, 'browser-agent', 'profile');
    const listed = () => runBin(sandbox, ['profiles', 'list'], { XDG_CACHE_HOME: cache }).stdout;
    const inUse = (): void =>
      expect(listed()).toMatch(new RegExp(`in use\\s+${escape(shared)}  \\(default profile\\)`));
    expect(await runWith([], inUse)).toEqual([shared]);
    expect(listed()).toMatch(new RegExp(`idle\\s+${escape(shared)}  \\(default profile\\)`));
  });

  test('browser.launch in the config file is launch mode for --isolated and --headless', async ({
    sandbox,
    site,
  }) => {
    const config = path.join(sandbox.root, 'launch.json');
    await writeFile(
      config,
      JSON.stringify({ browser: { launch: true, executablePath: CHROME_PATH } }),
    );
    const client = await sandbox.startServer({
      flags: ['--config', config, '--headless', '--isolated'],
    });
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    const profiles = launchedProfiles(sandbox);
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toContain(`${path.sep}browser-agent-profile-`);
  });

  test('bad project paths are refused with a hint, and nothing is created', async ({ sandbox }) => {
    const file = path.join(sandbox.root, 'file.txt');
    await writeFile(file, 'not a directory');
    const app = await makeProject(sandbox, 'app');
    const locked = await makeProject(sandbox, 'locked');
    // Root may write anywhere but to an immutable directory (ext4 here; chattr is e2fsprogs).
    const chattr = spawnSync('chattr', ['+i', locked]);
    const unwritable = chattr.status === 0 ? locked : '/proc/1';
    try {
      const bad: Array<[string, RegExp]> = [
        ['app', /must be absolute/],
        [path.join(sandbox.root, 'missing'), /does not exist/],
        [file, /not a directory/],
        [`${app}/../app`, /must not contain "\.\."/],
        [unwritable, /not writable/],
      ];
      for (const [dir, message] of bad) {
        const refused = runBin(sandbox, ['--launch', '--headless', '--project', dir]);
        expect(refused.status, `--project ${dir}`).toBe(2);
        expect(refused.stderr).toMatch(message);
      }

      const client = await sandbox.startServer({ flags: LAUNCH });
      for (const [dir, message] of bad) {
        const outcome = await callToolUntyped(client, 'browser_navigate', {
          url: 'about:blank',
          projectPath: dir,
        });
        expect(outcome.isError, `projectPath ${dir}`).toBe(true);
        expect(outcome.text).toContain('INVALID_ARGS');
        expect(outcome.text).toMatch(message);
        expect(outcome.text).toMatch(/absolute|directory|\.\./i);
      }
      expect(existsSync(path.join(sandbox.root, 'missing'))).toBe(false);
      expect(readdirSync(app)).toEqual([]);
      expect(existsSync(path.join(sandbox.home, 'projects'))).toBe(false);
      expect(launchedProfiles(sandbox), 'no browser starts for a refused project').toEqual([]);

      // A refused path does not fix the project: the next good one still takes effect.
      await callToolUntyped(client, 'browser_navigate', { url: 'about:blank', projectPath: app });
      expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);
    } finally {
      if (chattr.status === 0) spawnSync('chattr', ['-i', locked]);
      await chmod(locked, 0o755).catch(() => undefined);
    }
  });

  test('the project from MCP roots gets its profile, and the .gitignore hint comes once', async ({
    sandbox,
    site,
  }) => {
    const app = await makeProject(sandbox, 'app', 'node_modules/\n');
    // Only a project inside a git work tree gets the hint (a .git file marks a linked worktree).
    await writeFile(path.join(app, '.git'), 'gitdir: /elsewhere/.git/worktrees/app\n');
    const client = await sandbox.startServer({ flags: LAUNCH, roots: [app] });
    const url = site.url('/button.html');
    const first = await callOk(client, 'browser_navigate', { url });
    expect(first.text).toContain(`Add this line to that .gitignore: ${PROFILE_DIRNAME}/`);
    expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);

    // Roots fixed the project: a projectPath naming another one is ignored, and says so.
    const other = await makeProject(sandbox, 'other');
    const second = await callToolUntyped(client, 'browser_snapshot', { projectPath: other });
    expect(second.isError).toBe(false);
    expect(second.text).not.toContain('.gitignore');
    expect(second.text).toContain('projectPath was ignored');
    expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);
    const logged = sandbox.serverStderr(client).split(`${PROFILE_DIRNAME}/`).length - 1;
    expect(logged, 'the hint is logged once').toBe(1);
  });

  test('without a shared daemon (BROWSER_AGENT_NO_DAEMON=1) the project still gets its own profile', async ({
    sandbox,
    site,
  }) => {
    const app = await makeProject(sandbox, 'app', `${PROFILE_DIRNAME}/\n`);
    const client = await sandbox.startServer({
      flags: [...LAUNCH, '--project', app],
      env: { BROWSER_AGENT_NO_DAEMON: '1' },
    });
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);
    expect(sandbox.serverStderr(client)).toContain('hosting the bridge in this process');
  });

  test('profiles list shows project profiles and prune removes the ones unused too long', async ({
    sandbox,
    site,
  }) => {
    const app = await makeProject(sandbox, 'app', `${PROFILE_DIRNAME}/\n`);
    const client = await sandbox.startServer({ flags: [...LAUNCH, '--project', app] });
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    const profile = path.join(app, PROFILE_DIRNAME);

    const inUse = runBin(sandbox, ['profiles', 'list']);
    expect(inUse.status).toBe(0);
    expect(inUse.stdout).toMatch(new RegExp(`in use\\s+${escape(profile)}`));
    const kept = runBin(sandbox, ['profiles', 'prune', '--older-than', '0s']);
    expect(kept.stdout, 'a profile in use is never pruned').toContain('0 profile(s) removed');
    expect(existsSync(profile)).toBe(true);

    await client.close();
    await stopDaemons(sandbox);
    expect(runBin(sandbox, ['profiles', 'list']).stdout).toMatch(
      new RegExp(`idle\\s+${escape(profile)}`),
    );
    expect(runBin(sandbox, ['profiles', 'prune', '--older-than', '30d']).stdout).toContain(
      '0 profile(s) removed',
    );

    // Make the last use 40 days old: the record and Chromium's own "Local State".
    const old = new Date(Date.now() - 40 * 86_400_000);
    const records = path.join(sandbox.home, 'profiles');
    for (const name of readdirSync(records)) {
      await writeFile(
        path.join(records, name),
        JSON.stringify({ project: app, profile, lastUsedAt: old.toISOString() }),
      );
    }
    await utimes(path.join(profile, 'Local State'), old, old);
    const dry = runBin(sandbox, ['profiles', 'prune', '--older-than', '30d', '--dry-run']);
    expect(dry.stdout).toContain(`would remove`);
    expect(existsSync(profile)).toBe(true);
    const pruned = runBin(sandbox, ['profiles', 'prune', '--older-than', '30d']);
    expect(pruned.stdout).toContain('1 profile(s) removed');
    expect(existsSync(profile)).toBe(false);
    expect(existsSync(app), 'only the profile goes, never the project').toBe(true);
    expect(runBin(sandbox, ['profiles', 'list']).stdout).toContain('No project profiles');
    expect(runBin(sandbox, ['profiles', 'prune']).status, '--older-than is required').toBe(2);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
