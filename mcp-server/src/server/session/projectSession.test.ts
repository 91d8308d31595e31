import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/logger.js';
import { ProjectSession } from './projectSession.js';

const root = mkdtempSync(path.join(tmpdir(), 'project-session-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = path.join(root, 'home');
const app = path.join(root, 'app');
const other = path.join(root, 'other');
mkdirSync(app);
mkdirSync(other);
// A git work tree: the .gitignore hint is only given inside one.
mkdirSync(path.join(root, '.git'));
writeFileSync(path.join(app, '.gitignore'), '.user-session-data-directory/\n');
const userPaths = {
  dir: home,
  socket: path.join(home, 'daemon.sock'),
  pidFile: path.join(home, 'daemon.pid'),
  logFile: path.join(home, 'daemon.log'),
};
const launch = { headless: true, isolated: false };
const log = { ...createLogger('test'), warn: () => undefined, info: () => undefined };

function session(options: Partial<ConstructorParameters<typeof ProjectSession>[0]> = {}) {
  return new ProjectSession({
    launch,
    userPaths,
    log,
    env: { BROWSER_AGENT_HOME: home, XDG_CACHE_HOME: path.join(root, 'cache') },
    ...options,
  });
}

describe('ProjectSession', () => {
  it('waits in launch mode without a project, and the first projectPath picks its daemon', async () => {
    const s = session();
    expect(s.initialize(undefined)).toBe(false);
    await expect(s.beforeCall('relative')).rejects.toMatchObject({ code: 'INVALID_ARGS' });
    expect(s.project).toBeUndefined();
    expect(await s.beforeCall(app)).toEqual([]);
    const route = s.route();
    expect(route.project).toBe(app);
    expect(route.paths.dir).toMatch(/projects\/[0-9a-f]{16}$/);
    expect(route.launch?.userDataDir).toBe(path.join(app, '.user-session-data-directory'));
    expect(route.daemonArgs).toEqual([
      '--state-dir',
      route.paths.dir,
      '--socket',
      route.paths.socket,
      '--port',
      '0',
    ]);
    const notes = await s.beforeCall(other);
    expect(notes.join('\n')).toContain('projectPath was ignored');
  });

  it('knows its daemon before the first call unless a projectPath could still pick one', () => {
    const waiting = session();
    waiting.initialize(undefined);
    expect(waiting.routeKnown(), 'launch mode, default profile, no project yet').toBe(false);
    const withRoot = session();
    withRoot.initialize(app);
    expect(withRoot.routeKnown(), 'the client root fixed the project').toBe(true);
    for (const own of [
      { ...launch, userDataDir: path.join(root, 'p') },
      { ...launch, isolated: true },
    ]) {
      const s = session({ launch: own });
      s.initialize(undefined);
      expect(s.routeKnown(), 'the profile does not follow the project').toBe(true);
      expect(s.route().paths).toEqual(userPaths);
    }
    const extensionMode = session({ launch: undefined });
    extensionMode.initialize(undefined);
    expect(extensionMode.routeKnown()).toBe(true);
  });

  it('fixes "no project" at the first call, and the default profile stays on the user daemon', async () => {
    const s = session();
    s.initialize(undefined);
    await s.beforeCall(undefined);
    await s.beforeCall(app);
    const route = s.route();
    expect(route.project).toBeUndefined();
    expect(route.paths).toBe(userPaths);
    expect(route.launch?.userDataDir).toBe(path.join(root, 'cache', 'browser-agent', 'profile'));
  });

  it('prefers the roots to --project, and needs no projectPath then', () => {
    const s = session({ cliProject: other });
    expect(s.initialize(app)).toBe(true);
    expect(s.project).toBe(app);
    const fallback = session({ cliProject: other });
    expect(fallback.initialize(path.join(root, 'missing'))).toBe(true);
    expect(fallback.project).toBe(other);
  });

  it('gives the .gitignore hint once, and again after a failed call', async () => {
    const s = session({ cliProject: other });
    s.initialize(undefined);
    const first = await s.beforeCall(undefined);
    expect(first.join('\n')).toContain('Add this line');
    s.unsent(first);
    expect((await s.beforeCall(undefined)).join('\n')).toContain('Add this line');
    expect(await s.beforeCall(undefined)).toEqual([]);
  });

  it('keeps the user daemon when the profile is not the project one', () => {
    const s = session({ cliProject: app, launch: { headless: true, isolated: true } });
    s.initialize(undefined);
    expect(s.route().paths).toBe(userPaths);
    const plain = session({ cliProject: app, launch: undefined });
    expect(plain.initialize(undefined)).toBe(true);
    expect(plain.route()).toMatchObject({ paths: userPaths, project: app, launch: undefined });
  });

  it('a session key is one owner: a restarted server finds its isolated browser context', () => {
    const isolated = { headless: true, isolated: true };
    const keyed = () => {
      const s = session({ launch: isolated, sessionKey: 'agent-7' });
      s.initialize(undefined);
      return s.route().launch?.owner;
    };
    expect(keyed()).toBe(keyed());
    expect(keyed()).not.toContain('agent-7');
    const unkeyed = () => {
      const s = session({ launch: isolated });
      s.initialize(undefined);
      return s.route().launch?.owner;
    };
    expect(unkeyed()).not.toBe(unkeyed());
  });

  it("an isolated session's own daemon exits soon after its session; a browser's own keeps its minute", () => {
    const s = session({ launch: { headless: true, isolated: true } });
    s.initialize(undefined);
    expect(s.useOwnBrowser('test')).toBe(true);
    expect(s.route().daemonArgs).toContain('--idle-exit-ms');
    const other = session({ launch: { headless: true, isolated: false, userDataDir: '/tmp/p' } });
    other.initialize(undefined);
    expect(other.useOwnBrowser('test')).toBe(true);
    expect(other.route().daemonArgs).not.toContain('--idle-exit-ms');
  });
});
