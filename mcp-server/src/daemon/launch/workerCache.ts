/**
 * A kept launch profile must not run an extension worker of another build. Chrome keeps an
 * extension's service worker script in the profile (`Default/Service Worker`) and registers it
 * again only when it reinstalls the extension, not when the files of an unpacked extension
 * change (a bump of the manifest `version` did not do it either): after an update in place the
 * pages and content scripts were new while yesterday's worker kept running, across launches, and
 * the build handshake is sent by the relay page, not by the worker. `chrome.runtime.reload()`
 * from the relay page re-registers it, but under load it left the extension unloaded (3 of 3
 * runs, ERR_BLOCKED_BY_CLIENT on its pages): too dangerous. Removing the registrations before the
 * browser starts is what worked every time, so the daemon does that when the extension's build
 * differs from the one the profile last ran. Sites' own service workers in that profile go too
 * (their caches are fetched again); only on a build change.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the profile remembers the extension build it last ran. */
const MARKER = 'browser-agent-extension-build';

/** The build named by the extension's manifest (`version_name` "0.1.0 build <id>"). */
export function extensionBuild(extensionDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8')) as {
      version_name?: unknown;
    };
    const name = typeof manifest.version_name === 'string' ? manifest.version_name : '';
    return /\bbuild ([0-9a-z]+)$/.exec(name)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Before a launch with `profile`: when it last ran another build of the extension at
 * `extensionDir` (or none is recorded but it has worker registrations), its service worker
 * registrations are removed. True when they were.
 */
export function dropStaleWorkers(profile: string, extensionDir: string): boolean {
  const build = extensionBuild(extensionDir);
  if (build === undefined) return false;
  const marker = join(profile, MARKER);
  const last = existsSync(marker) ? readFileSync(marker, 'utf8').trim() : undefined;
  if (last === build) return false;
  const workers = join(profile, 'Default', 'Service Worker');
  const had = existsSync(workers);
  rmSync(workers, { recursive: true, force: true });
  mkdirSync(profile, { recursive: true, mode: 0o700 });
  writeFileSync(marker, `${build}\n`, { mode: 0o600 });
  return had;
}
