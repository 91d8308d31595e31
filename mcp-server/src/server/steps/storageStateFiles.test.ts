import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile, stateFileSource, stateFileTarget } from './storageStateFiles.js';

const scratch = (): string => realpathSync(mkdtempSync(path.join(tmpdir(), 'state-files-')));

describe('storage state files', () => {
  it('saves relative names under the output directory, else the first root', async () => {
    const out = path.join(scratch(), 'out');
    const root = scratch();
    expect(await stateFileTarget('s.json', out, [root])).toBe(path.join(out, 's.json'));
    expect(await stateFileTarget('s.json', undefined, [root])).toBe(path.join(root, 's.json'));
    expect(path.basename(await stateFileTarget(undefined, out, []))).toMatch(
      /^storage-state-.*\.json$/,
    );
    await expect(stateFileTarget('../s.json', out, [])).rejects.toThrow(/leaves/);
    await expect(stateFileTarget('s.json', undefined, [])).rejects.toThrow(/no output directory/);
  });

  it('saves absolute names only inside the output directory or a root', async () => {
    const root = scratch();
    const elsewhere = scratch();
    expect(await stateFileTarget(path.join(root, 'a.json'), undefined, [root])).toBe(
      path.join(root, 'a.json'),
    );
    await expect(
      stateFileTarget(path.join(elsewhere, 'a.json'), undefined, [root]),
    ).rejects.toThrow(/outside/);
    await expect(
      stateFileTarget(path.join(root, 'no-such-dir', 'a.json'), undefined, [root]),
    ).rejects.toThrow(/does not exist/);
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
