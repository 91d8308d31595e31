import { describe, expect, it } from 'vitest';
import { turnOrder } from './measureProbe.js';

describe('turnOrder', () => {
  it('alternates two agents, as the bench always did', () => {
    expect(turnOrder(['bridge', 'floor'], 0)).toEqual(['bridge', 'floor']);
    expect(turnOrder(['bridge', 'floor'], 1)).toEqual(['floor', 'bridge']);
    expect(turnOrder(['bridge', 'floor'], 2)).toEqual(['bridge', 'floor']);
  });

  it('puts each of three agents in each place once every three iterations', () => {
    const agents = ['bridge', 'floor', 'mcp-floor'];
    const rounds = [0, 1, 2].map((i) => turnOrder(agents, i));
    for (let place = 0; place < agents.length; place += 1)
      expect(new Set(rounds.map((r) => r[place]))).toEqual(new Set(agents));
  });

  it('copes with no agents and leaves the input alone', () => {
    expect(turnOrder([], 5)).toEqual([]);
    const agents = ['a', 'b'];
    turnOrder(agents, 1);
    expect(agents).toEqual(['a', 'b']);
  });
});
