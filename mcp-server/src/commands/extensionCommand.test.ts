import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExtensionCommand } from './extensionCommand.js';

let root: string;
let ext: string;
let out: string;
let err: string;
const io = {
  out: (t: string) => {
    out += t;
  },
  err: (t: string) => {
    err += t;
  },
};

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ba-ext-'));
  ext = path.join(root, 'ext');
  mkdirSync(path.join(ext, 'assets'), { recursive: true });
  writeFileSync(
    path.join(ext, 'manifest.json'),
    JSON.stringify({ manifest_version: 3, name: 'Browser Agent', version: '0.1.0', key: 'MIIB' }),
  );
  writeFileSync(
    path.join(ext, 'assets', 'a.js'),
    `console.log(1);\n${'x'.repeat(5000)}\n//# sourceMappingURL=a.js.map\n`,
  );
  writeFileSync(path.join(ext, 'assets', 'a.js.map'), '{}');
  writeFileSync(path.join(ext, 'assets', 'a.test.js'), 'test');
  out = '';
  err = '';
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('extension', () => {
  it('prints the folder to load unpacked', () => {
    expect(runExtensionCommand([], io, ext)).toBe(0);
    expect(out).toBe(`${ext}\n`);
  });

  it('--zip writes a store zip without maps or tests, and reports its size', () => {
    const zip = path.join(root, 'out.zip');
    expect(runExtensionCommand(['--zip', zip], io, ext)).toBe(0);
    // unzip is an independent reader: it checks every CRC and lists the entries.
    execFileSync('unzip', ['-tq', zip]);
    const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toEqual(['assets/a.js', 'manifest.json']);
    const js = execFileSync('unzip', ['-p', zip, 'assets/a.js'], { encoding: 'utf8' });
    expect(js).not.toContain('sourceMappingURL');
    expect(js).toContain('console.log(1);');
    expect(out).toContain(`2 files, ${statSync(zip).size} B`);
    expect(out).toContain('extension 0.1.0');
    // The store assigns the id: its upload refuses a manifest with a key (#28).
    const manifest = JSON.parse(
      execFileSync('unzip', ['-p', zip, 'manifest.json'], { encoding: 'utf8' }),
    ) as Record<string, unknown>;
    expect(manifest).toEqual({ manifest_version: 3, name: 'Browser Agent', version: '0.1.0' });
  });

  it('refuses a folder without a valid MV3 manifest, saying what to do', () => {
    writeFileSync(
      path.join(ext, 'manifest.json'),
      JSON.stringify({ manifest_version: 2, name: 'x', version: '1' }),
    );
    expect(runExtensionCommand(['--zip', path.join(root, 'o.zip')], io, ext)).toBe(1);
    expect(err).toContain('manifest_version is not 3');
    rmSync(path.join(ext, 'manifest.json'));
    expect(runExtensionCommand([], io, ext)).toBe(1);
    expect(err).toContain('pnpm build');
  });
});
