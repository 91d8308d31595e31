import type { SamplesByAgent } from '../runner/samples.js';
import { summarize, type Summary } from '../stats.js';

/**
 * One probe's three agents side by side. The ratio is against the in-process floor; the
 * floor over MCP is a second reference that pays what any MCP server pays (stdio, JSON-RPC, the
 * SDK's validation on both ends), so the bridge's cost splits into that and its own.
 */
export interface ProbeComparison {
  bridge: Summary;
  floor: Summary;
  mcpFloor: Summary;
  /** Bridge median ÷ floor median: the ratio the target is judged on. */
  bridgeOverFloor: number;
  /** Bridge median ÷ floor-over-MCP median: the bridge against the cheapest MCP tool. */
  bridgeOverMcpFloor: number;
  /** Floor-over-MCP median − floor median: the MCP stdio round trip's cost on this probe. */
  mcpRoundTripMs: number;
}

export function compareProbe(samples: SamplesByAgent): ProbeComparison {
  const ms = (kind: keyof SamplesByAgent) => summarize((samples[kind] ?? []).map((s) => s.ms));
  const bridge = ms('bridge');
  const floor = ms('floor');
  const mcpFloor = ms('mcp-floor');
  return {
    bridge,
    floor,
    mcpFloor,
    bridgeOverFloor: bridge.median / floor.median,
    bridgeOverMcpFloor: bridge.median / mcpFloor.median,
    mcpRoundTripMs: mcpFloor.median - floor.median,
  };
}
