import { describe, expect, it } from 'vitest';
import { rotated } from './measureFirstCall.js';

describe('the first-call rounds', () => {
  it('give each peer the first place in turn', () => {
    const peers = ['ours', 'playwright-mcp', 'chrome-devtools-mcp'];
    const firsts = [1, 2, 3, 4, 5, 6].map((round) => rotated(peers, round)[0]);
    expect(firsts).toEqual([
      'playwright-mcp',
      'chrome-devtools-mcp',
      'ours',
      'playwright-mcp',
      'chrome-devtools-mcp',
      'ours',
    ]);
    expect(rotated(peers, 2)).toEqual(['chrome-devtools-mcp', 'ours', 'playwright-mcp']);
    expect(peers, 'the list itself is left as it was').toEqual([
      'ours',
      'playwright-mcp',
      'chrome-devtools-mcp',
    ]);
  });
});
