import { mkdirSync, mkdtempSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile, stateFileSource, writeStateFile } from './storageStateFiles.js';

const scratch = (): string => realpathSync(mkdtempSync(path.join(tmpdir(), 'state-files-')));

describe('storage state files', () => {
  it('saves only in the output directory, as a new 0600 file', async () => {
    const out = path.join(scratch(), 'out');
    const file = await writeStateFile(out, 's.json', '{}');
    expect(file).toBe(path.join(out, 's.json'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(path.basename(await writeStateFile(out, undefined, '{}'))).toMatch(
      /^storage-state-.*\.json$/,
    );
    await expect(writeStateFile(out, '../s.json', '{}')).rejects.toThrow(/outside/);
    await expect(writeStateFile(out, path.join(scratch(), 'a.json'), '{}')).rejects.toThrow(
      /outside/,
    );
    await expect(writeStateFile(out, 's.json', '{}')).rejects.toThrow(/exists/);
  });

  it('loads only from the output directory or the upload roots, and checks the shape', async () => {
    const out = scratch();
    const elsewhere = scratch();
    writeFileSync(
      path.join(out, 'ok.json'),
      JSON.stringify({ cookies: [{ name: 'a', value: 'b', domain: 'x.test' }] }),
    );
    const file = await stateFileSource('ok.json', out, []);
    expect(await readStateFile(file)).toEqual({
      cookies: [{ name: 'a', value: 'b', domain: 'x.test' }],
      origins: [],
    });
    writeFileSync(path.join(elsewhere, 'x.json'), '{}');
    await expect(stateFileSource(path.join(elsewhere, 'x.json'), out, [])).rejects.toThrow(
      /outside/,
    );
    mkdirSync(path.join(out, '.hidden'));
    writeFileSync(path.join(out, '.hidden', 'x.json'), '{}');
    await expect(stateFileSource('.hidden/x.json', out, [])).rejects.toThrow(/hidden/);
    writeFileSync(path.join(out, 'bad.json'), '{"cookies": 5}');
    await expect(readStateFile(path.join(out, 'bad.json'))).rejects.toThrow(/not a storage state/);
    writeFileSync(path.join(out, 'text.json'), 'nope');
    await expect(readStateFile(path.join(out, 'text.json'))).rejects.toThrow(/not JSON/);
  });
});
