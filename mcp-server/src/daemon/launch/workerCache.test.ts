import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '@browser-agent/protocol';
import { dropStaleWorkers, extensionBuild } from './workerCache.js';

function extensionOf(build: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'ext-'));
  const manifest = { version: '0.1.0', ...(build ? { version_name: `0.1.0 build ${build}` } : {}) };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

function profileWithWorkers(): string {
  const profile = mkdtempSync(join(tmpdir(), 'profile-'));
  mkdirSync(join(profile, 'Default', 'Service Worker', 'ScriptCache'), { recursive: true });
  writeFileSync(join(profile, 'Default', 'Service Worker', 'ScriptCache', 'x_0'), 'old worker');
  return profile;
}

describe('dropStaleWorkers', () => {
  it('removes the worker registrations of a profile that ran another build, once', () => {
    const profile = profileWithWorkers();
    const ext = extensionOf('aaaaaaaaaaaa');
    expect(dropStaleWorkers(profile, ext)).toBe(true);
    expect(existsSync(join(profile, 'Default', 'Service Worker'))).toBe(false);
    expect(readFileSync(join(profile, 'browser-agent-extension-build'), 'utf8')).toBe(
      'aaaaaaaaaaaa\n',
    );
    // Chrome registers the new build's worker; the next launch of the same build keeps it.
    mkdirSync(join(profile, 'Default', 'Service Worker'), { recursive: true });
    expect(dropStaleWorkers(profile, ext)).toBe(false);
    expect(existsSync(join(profile, 'Default', 'Service Worker'))).toBe(true);
    // The next update drops it again.
    expect(dropStaleWorkers(profile, extensionOf('bbbbbbbbbbbb'))).toBe(true);
  });

  it('records the build in a new profile, and leaves alone an extension that names none', () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'root-')), 'profile');
    expect(dropStaleWorkers(fresh, extensionOf('cccccccccccc'))).toBe(false);
    expect(existsSync(join(fresh, 'browser-agent-extension-build'))).toBe(true);
    const profile = profileWithWorkers();
    expect(extensionBuild(extensionOf(undefined))).toBeUndefined();
    expect(dropStaleWorkers(profile, extensionOf(undefined))).toBe(false);
    expect(existsSync(join(profile, 'Default', 'Service Worker'))).toBe(true);
  });

  it("makes Chrome forget our worker's registration too, or it starts the one that is gone", () => {
    const profile = profileWithWorkers();
    const prefsFile = join(profile, 'Default', 'Preferences');
    const settings = {
      [EXTENSION_ID]: { path: '/ext', service_worker_registration_info: { version: '0.1.0' } },
      otherextensionidotherextensionid: { service_worker_registration_info: { version: '2' } },
    };
    writeFileSync(prefsFile, JSON.stringify({ extensions: { settings }, browser: { x: 1 } }));
    expect(dropStaleWorkers(profile, extensionOf('dddddddddddd'))).toBe(true);
    const after = JSON.parse(readFileSync(prefsFile, 'utf8')) as {
      extensions: { settings: Record<string, Record<string, unknown>> };
      browser: unknown;
    };
    expect(after.extensions.settings[EXTENSION_ID]).toEqual({ path: '/ext' });
    expect(after.extensions.settings['otherextensionidotherextensionid']).toEqual({
      service_worker_registration_info: { version: '2' },
    });
    expect(after.browser).toEqual({ x: 1 });
  });

  it('leaves the registrations alone when the Preferences file cannot be read', () => {
    const profile = profileWithWorkers();
    writeFileSync(join(profile, 'Default', 'Preferences'), '{ not json');
    expect(dropStaleWorkers(profile, extensionOf('eeeeeeeeeeee'))).toBe(false);
    expect(existsSync(join(profile, 'Default', 'Service Worker'))).toBe(true);
  });
});
