import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAdminSites } from './adminPolicy.js';

function file(content: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ba-admin-'));
  const p = path.join(dir, 'policy.json');
  writeFileSync(p, content);
  return p;
}

// `aix` has no system path here, so only the variable's file counts.
const only = (p: string) => readAdminSites({ BROWSER_AGENT_ADMIN_POLICY: p }, 'aix');

describe('readAdminSites', () => {
  it('is undefined without a file', () => {
    expect(readAdminSites({}, 'aix')).toBeUndefined();
    expect(only('/nonexistent/policy.json')).toBeUndefined();
  });
  it('reads allow and block lists, naming the file', () => {
    const p = file(JSON.stringify({ allowSites: ['a.test'], blockSites: ['bank.test'] }));
    expect(only(p)).toEqual({ allow: ['a.test'], block: ['bank.test'], source: p });
  });
  it('refuses a broken file instead of skipping the policy', () => {
    expect(() => only(file('{'))).toThrow(/not valid JSON/);
    expect(() => only(file(JSON.stringify({ blockSite: ['x'] })))).toThrow(/admin policy/);
  });
});
