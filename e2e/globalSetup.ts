import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHROME_PATH, EXTENSION_DIR, SERVER_ENTRY } from '@browser-agent/testkit/workspace';

/** Fails the run once, with the fix, instead of every test timing out on a missing build. */
export default function globalSetup(): void {
  const missing = [path.join(EXTENSION_DIR, 'manifest.json'), SERVER_ENTRY, CHROME_PATH].filter(
    (file) => !existsSync(file),
  );
  if (missing.length > 0) {
    throw new Error(
      `Missing ${missing.join(', ')}. Run \`pnpm build\` at the workspace root, and set CHROME_PATH if Chromium is not at /usr/bin/chromium.`,
    );
  }
}
