import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderToolReference } from './reference.js';
import { toolContracts } from './index.js';

describe('docs/tools.md', () => {
  it('matches the contracts (run pnpm docs:tools after changing a tool)', () => {
    const onDisk = readFileSync(new URL('../../../docs/tools.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(renderToolReference());
  });
  it('documents every tool', () => {
    const text = renderToolReference();
    for (const c of toolContracts) expect(text).toContain(`## ${c.name}`);
  });
});
