import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from './packageDir.js';

let version: string | undefined;

/**
 * This package's release (its package.json version): what the daemon reports to the doctor and
 * to the extension, and what the extension's release is compared with.
 * BROWSER_AGENT_RELEASE_OVERRIDE stands in for another release in tests of version skew.
 */
export function packageVersion(): string {
  const override = process.env['BROWSER_AGENT_RELEASE_OVERRIDE'];
  if (override) return override;
  if (version !== undefined) return version;
  try {
    const pkg = JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    version = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    version = 'unknown';
  }
  return version;
}
