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
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// The constants alone: the daemon's first lines load this (main.ts), not the protocol's schemas.
import { EXTENSION_ID } from '@browser-agent/protocol/constants';

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
  // Chrome must also forget that it registered our worker, or it starts the registration that
  // is gone instead of registering today's: first launches after an update then failed (5 of 6
  // logged DidStartWorkerFail, status "not found"; 4 of 6 waited 30 s for a link).
  if (!forgetRegistration(join(profile, 'Default', 'Preferences'))) return false;
  const workers = join(profile, 'Default', 'Service Worker');
  const had = existsSync(workers);
  rmSync(workers, { recursive: true, force: true });
  mkdirSync(profile, { recursive: true, mode: 0o700 });
  writeFileSync(marker, `${build}\n`, { mode: 0o600 });
  return had;
}

/**
 * Removes the extension's `service_worker_registration_info` from the profile's Preferences,
 * so Chrome registers the worker from the extension's files at start. False when Preferences
 * exists but cannot be read as JSON: the registrations are then left alone (yesterday's worker
 * runs, which beats a worker that never starts).
 */
function forgetRegistration(preferences: string): boolean {
  if (!existsSync(preferences)) return true;
  let prefs: { extensions?: { settings?: Record<string, Record<string, unknown>> } };
  try {
    prefs = JSON.parse(readFileSync(preferences, 'utf8')) as typeof prefs;
  } catch {
    return false;
  }
  const ours = prefs.extensions?.settings?.[EXTENSION_ID];
  if (ours === undefined || !('service_worker_registration_info' in ours)) return true;
  delete ours['service_worker_registration_info'];
  // Chrome writes Preferences itself with 0600; replaced whole, never half-written.
  const next = `${preferences}.browser-agent`;
  writeFileSync(next, JSON.stringify(prefs), { mode: 0o600 });
  renameSync(next, preferences);
  return true;
}
