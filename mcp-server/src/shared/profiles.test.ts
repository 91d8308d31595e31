import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseProfile, PROJECT_PROFILE_DIRNAME } from './profiles.js';
import { projectDaemonPaths } from './projectDaemonPaths.js';

const env = { XDG_CACHE_HOME: '/cache' };

describe('chooseProfile', () => {
  it('takes --user-data-dir, then --isolated, then the project, then the default', () => {
    expect(chooseProfile({ userDataDir: '/own', isolated: true }, '/app', env)).toEqual({
      source: 'user-data-dir',
      dir: '/own',
    });
    expect(chooseProfile({ isolated: true }, '/app', env)).toEqual({
      source: 'isolated',
      dir: undefined,
    });
    expect(chooseProfile({ isolated: false }, '/app', env)).toEqual({
      source: 'project',
      dir: path.join('/app', PROJECT_PROFILE_DIRNAME),
    });
    expect(chooseProfile({ isolated: false }, undefined, env)).toEqual({
      source: 'default',
      dir: path.join('/cache', 'browser-agent', 'profile'),
    });
  });
});

describe('projectDaemonPaths', () => {
  const user = { dir: '/s', socket: '/s/daemon.sock', pidFile: '', logFile: '' };

  it('gives each project its own state dir and socket, keyed by its path', () => {
    const a = projectDaemonPaths(user, '/work/a');
    const b = projectDaemonPaths(user, '/work/b');
    expect(a.dir).toMatch(/^\/s\/projects\/[0-9a-f]{16}$/);
    expect(a.dir).not.toBe(b.dir);
    expect(projectDaemonPaths(user, '/work/a')).toEqual(a);
    if (process.platform !== 'win32') expect(a.socket).toBe(path.join(a.dir, 'daemon.sock'));
  });

  it('moves the socket out of a state dir too deep for a Unix socket path', () => {
    if (process.platform === 'win32') return;
    const deep = { ...user, dir: `/${'d'.repeat(120)}` };
    const socket = projectDaemonPaths(deep, '/work/a').socket;
    expect(Buffer.byteLength(socket)).toBeLessThanOrEqual(100);
    expect(socket).toMatch(/browser-agent-\d+\/[0-9a-f]{16}\.sock$/);
  });
});
