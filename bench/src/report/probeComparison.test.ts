import { describe, expect, it } from 'vitest';
import type { Sample } from '../runner/samples.js';
import { compareProbe } from './probeComparison.js';

const samples = (...ms: number[]): Sample[] =>
  ms.map((m) => ({ ms: m, textChars: 0, imageChars: 0 }));

describe('compareProbe', () => {
  it('gives both ratios and the MCP round trip from the medians', () => {
    const c = compareProbe({
      bridge: samples(4, 5, 6),
      floor: samples(1, 2, 3),
      'mcp-floor': samples(3, 4, 9),
    });
    expect(c.bridge.median).toBe(5);
    expect(c.floor.median).toBe(2);
    expect(c.mcpFloor.median).toBe(4);
    expect(c.mcpFloor.p90).toBe(9);
    expect(c.bridgeOverFloor).toBe(2.5);
    expect(c.bridgeOverMcpFloor).toBe(1.25);
    expect(c.mcpRoundTripMs).toBe(2);
  });

  it('leaves what an absent agent would give as NaN, never as a number', () => {
    const c = compareProbe({ bridge: samples(4), floor: samples(2) });
    expect(c.bridgeOverFloor).toBe(2);
    expect(c.bridgeOverMcpFloor).toBeNaN();
    expect(c.mcpRoundTripMs).toBeNaN();
  });

  it('gives no ratio at all for a bridge-only probe', () => {
    const c = compareProbe({ bridge: samples(4) });
    expect(c.bridgeOverFloor).toBeNaN();
    expect(c.bridgeOverMcpFloor).toBeNaN();
  });
});
