import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFile, hasStrings } from './jsonFile.js';
import { PairingStore } from './link/pairingStore.js';
import { SessionFile } from './sessionFile.js';

const isNamed = (entry: unknown): entry is { name: string } => hasStrings(entry, 'name');

function fresh(): string {
  return mkdtempSync(join(tmpdir(), 'ba-json-'));
}

describe('JsonFile', () => {
  it('reads back what it wrote, user-only, with no temporary file left', () => {
    const path = join(fresh(), 'list.json');
    const file = new JsonFile(path, isNamed);
    expect(file.read()).toEqual([]);
    file.write([{ name: 'a' }, { name: 'b' }]);
    expect(file.read()).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it('reads a broken or foreign file as an empty list, and leaves out entries it cannot use', () => {
    const path = join(fresh(), 'list.json');
    const file = new JsonFile(path, isNamed);
    writeFileSync(path, '{"half": ');
    expect(file.read()).toEqual([]);
    writeFileSync(path, '{"name": "not a list"}');
    expect(file.read()).toEqual([]);
    writeFileSync(path, JSON.stringify([{ name: 'ok' }, null, 7, { name: 3 }, { other: 'x' }]));
    expect(file.read()).toEqual([{ name: 'ok' }]);
  });

  it('keeps a file user-only even when a stale temporary file was readable by others', () => {
    const dir = fresh();
    for (const [name, write] of [
      ['pairings.json', () => new PairingStore(dir).mint('test')],
      [
        'sessions.json',
        () =>
          new SessionFile(dir).save([
            {
              id: 's',
              key: 'k',
              client: { name: 'c', version: '1' },
              project: undefined,
              policy: undefined,
              transactions: undefined,
            },
          ]),
      ],
    ] as const) {
      writeFileSync(join(dir, `${name}.tmp`), 'left over', { mode: 0o644 });
      write();
      expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600);
    }
    expect(new SessionFile(dir).load().map((s) => s.key)).toEqual(['k']);
    expect(new PairingStore(dir).all().map((p) => p.label)).toEqual(['test']);
  });
});
