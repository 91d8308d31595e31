/**
 * Whether this machine holds any browser policy files, which is where an admin's site lists for
 * the extension (chrome.storage.managed) come from on Linux: `/etc/<brand>/policies/` and
 * `/etc/opt/<brand>/policies/` (managed, recommended, and a cloud enrollment token), for Chromium,
 * Chrome, Chrome for Testing, Edge, Brave and the rest alike.
 *
 * Why the daemon asks: Chrome answers the extension's first `chrome.storage.managed` read only
 * once it counts its start-up as complete (a visible page loaded and idle, measured 2.3–3.5 s
 * after launch on this kind of machine), so the first call of a launched browser waited up to
 * 3 s for lists that, on a machine with no policy files, cannot exist. With none, the relay page
 * tells the worker so (`?policy=none`) and calls do not wait; Chrome's answer still applies the
 * moment it comes. Any file under a policies folder, or a platform other than Linux (policies in
 * the registry or in managed preferences), means the wait stays.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const POLICY_PARENTS = ['/etc', '/etc/opt'];

/** True when a policy file may exist (or cannot be ruled out); false only when none can. */
export function browserPolicyMayExist(
  parents: readonly string[] = POLICY_PARENTS,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform !== 'linux') return true;
  try {
    return parents.some((parent) =>
      entries(parent).some((brand) => holdsFile(join(parent, brand, 'policies'), 3)),
    );
  } catch {
    // A folder we cannot read might hold a policy.
    return true;
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (absent(err)) return [];
    throw err;
  }
}

function absent(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Any non-directory under dir, `depth` levels down at most; unreadable counts as holding one. */
function holdsFile(dir: string, depth: number): boolean {
  let stat;
  try {
    stat = statSync(dir);
  } catch (err) {
    // Not there, or under a file (/etc/passwd/policies): none.
    if (absent(err)) return false;
    throw err;
  }
  if (!stat.isDirectory()) return true;
  if (depth === 0) return true;
  return entries(dir).some((name) => holdsFile(join(dir, name), depth - 1));
}
