/**
 * Pairs the soak's browser with the daemon the way launch mode does, with no human step: a fresh
 * secret goes into the daemon's `pairings.json` (its half), and the relay page gets the same
 * secret in its URL fragment `#pair=<id>.<secret>` (the extension's half).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Returns the `#pair=…` fragment for the relay page's URL. */
export async function provisionPairing(home: string): Promise<string> {
  const secret = randomBytes(32);
  // The public id names a secret without revealing it: sha256 over a fixed label and the secret.
  const id = createHash('sha256')
    .update('browser-agent-pairing-id|')
    .update(secret)
    .digest('base64url')
    .slice(0, 16);
  const file = path.join(home, 'pairings.json');
  const existing = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => []);
  const entry = {
    id,
    secret: secret.toString('base64'),
    label: 'bench soak',
    createdAt: new Date().toISOString(),
  };
  const all = Array.isArray(existing) ? [...(existing as unknown[]), entry] : [entry];
  await writeFile(file, JSON.stringify(all), { mode: 0o600 });
  return `#pair=${id}.${entry.secret}`;
}
