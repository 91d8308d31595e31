/** The Results' first-call lines: each peer's median of its rounds, with the range beside it. */
import { describe, expect, it } from 'vitest';
import { firstCallLine } from './renderResults.js';

describe('firstCallLine', () => {
  it('gives the median and the range, a lone sample bare, and a dash for a peer with none', () => {
    expect(firstCallLine({ ours: [807, 731, 806], 'playwright-mcp': [593] })).toBe(
      'Browser Agent 806 ms (731 ms–807 ms), Playwright MCP 593 ms, Chrome DevTools MCP —',
    );
  });
});
