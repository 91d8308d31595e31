/**
 * The isolated host loads a copy of the built extension whose manifest says
 * `"incognito": "split"`: each browser context (an off-the-record profile) then gets a service
 * worker of its own that sees only that context's tabs and finds them by tab id. In the default
 * "spanning" mode one worker saw every context but every lookup by tab or window id failed
 * (docs/isolated.md). Only this copy says split: the extension a person installs keeps the
 * default, so their incognito windows behave as before.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function copySplitExtension(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const manifestPath = join(to, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  manifest['incognito'] = 'split';
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
}
