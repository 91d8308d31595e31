import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserPolicyMayExist } from './policyFiles.js';

describe('browserPolicyMayExist', () => {
  let root: string;
  const fresh = () => {
    root = mkdtempSync(join(tmpdir(), 'policies-'));
    const etc = join(root, 'etc');
    const opt = join(etc, 'opt');
    mkdirSync(opt, { recursive: true });
    return { etc, opt, parents: [etc, opt] };
  };
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is false when no brand has a policies folder, or its folders are empty', () => {
    const { etc, opt, parents } = fresh();
    mkdirSync(join(etc, 'chromium'));
    writeFileSync(join(etc, 'chromium', 'master_preferences'), '{}');
    // /etc is mostly files: /etc/passwd/policies is no policy folder.
    writeFileSync(join(etc, 'passwd'), '');
    expect(browserPolicyMayExist(parents, 'linux')).toBe(false);
    mkdirSync(join(etc, 'chromium', 'policies', 'managed'), { recursive: true });
    mkdirSync(join(opt, 'chrome', 'policies', 'recommended'), { recursive: true });
    expect(browserPolicyMayExist(parents, 'linux')).toBe(false);
  });

  it('is true for a managed, recommended or enrollment file of any brand', () => {
    for (const [parent, brand, kind] of [
      ['etc', 'chromium', 'managed'],
      ['opt', 'chrome', 'recommended'],
      ['opt', 'chrome_for_testing', 'enrollment'],
      ['etc', 'brave', 'managed'],
    ] as const) {
      const dirs = fresh();
      const folder = join(dirs[parent], brand, 'policies', kind);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'admin.json'), '{}');
      expect(browserPolicyMayExist(dirs.parents, 'linux')).toBe(true);
      rmSync(root, { recursive: true, force: true });
    }
    fresh();
  });

  it('counts a file where a folder belongs, and a hidden file, as a policy', () => {
    const { etc, parents } = fresh();
    mkdirSync(join(etc, 'chromium', 'policies'), { recursive: true });
    writeFileSync(join(etc, 'chromium', 'policies', 'managed'), '');
    expect(browserPolicyMayExist(parents, 'linux')).toBe(true);
    rmSync(join(etc, 'chromium', 'policies', 'managed'));
    mkdirSync(join(etc, 'chromium', 'policies', 'managed'));
    writeFileSync(join(etc, 'chromium', 'policies', 'managed', '.hidden.json'), '{}');
    expect(browserPolicyMayExist(parents, 'linux')).toBe(true);
  });

  it('is true off Linux, where policies live in the registry or managed preferences', () => {
    const { parents } = fresh();
    expect(browserPolicyMayExist(parents, 'darwin')).toBe(true);
    expect(browserPolicyMayExist(parents, 'win32')).toBe(true);
  });
});
