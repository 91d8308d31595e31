import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PairingStore, pairingId } from '../daemon/link/pairingStore.js';
import { runPairingsCommand } from './pairingsCommand.js';

const dir = mkdtempSync(join(tmpdir(), 'ba-pairings-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runPairingsCommand(
    [...argv, '--state-dir', dir],
    (t) => (out += t),
    (t) => (err += t),
  );
  return { code, out, err };
}

describe('browser-agent-mcp pairings', () => {
  it('lists pairings without their secrets and revokes one', () => {
    expect(run('list').out).toContain('No paired browsers');
    const store = new PairingStore(dir);
    const a = store.mint('Paired in the side panel');
    const b = store.mint('e2e');
    const listed = run('list');
    expect(listed.out).toContain(a.id);
    expect(listed.out).toContain(b.id);
    expect(listed.out).not.toContain(a.secret);
    expect(run('revoke', a.id)).toMatchObject({ code: 0 });
    expect(store.all().map((p) => p.id)).toEqual([b.id]);
    expect(run('revoke', a.id)).toMatchObject({ code: 1 });
    expect(run('frobnicate').code).toBe(2);
  });

  // CI met one: `pairings revoke -mLGhFkGtjZDcgby` failed with "Unknown option '-m'".
  // And another (1 in 4,096): `pairings revoke --sg9sq7rsFq2W-e`, "Unknown option '--sg9…'".
  it.each([['-'], ['--']])(
    'revokes a pairing whose id starts with %s, the way the list prints it',
    (prefix) => {
      let secret = randomBytes(32);
      while (!pairingId(secret).startsWith(prefix)) secret = randomBytes(32);
      const dashed = new PairingStore(dir).add(secret, 'dashed');
      expect(run('list').out).toContain(`${dashed.id}  `);
      expect(run('revoke', dashed.id)).toMatchObject({ code: 0 });
      expect(new PairingStore(dir).all().map((p) => p.id)).not.toContain(dashed.id);
      expect(run('revoke', dashed.id)).toMatchObject({ code: 1 });
    },
  );
});
