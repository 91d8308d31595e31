import type { FixtureSite } from '../../fixtures/server.js';
import type { FloorAgent } from '../agents/floorAgent.js';
import { progress } from '../log.js';
import type { ProbeResult, RunPlan } from './measureProbe.js';
import { sampleOf } from './samples.js';

/** Floor-only reference rows: the bare CDP call any snapshot of these pages starts from. */
export async function measureRawAxTree(
  floor: FloorAgent,
  site: FixtureSite,
  plan: RunPlan,
): Promise<ProbeResult[]> {
  const pages = [
    { id: 'raw-ax-big', path: '/big.html', what: 'page of ~5,000 elements' },
    { id: 'raw-ax-table', path: '/table.html', what: '1,000-row table' },
  ];
  const results: ProbeResult[] = [];
  for (const page of pages) {
    const result: ProbeResult = {
      id: page.id,
      label: `raw CDP Accessibility.getFullAXTree, ${page.what} (floor only, a reference)`,
      samples: { floor: [] },
    };
    try {
      await floor.goto(site.url(page.path));
      for (let i = 0; i < plan.warmup + plan.iterations; i += 1) {
        const outcome = await floor.rawAxTree();
        if (i >= plan.warmup) result.samples.floor?.push(sampleOf(outcome));
      }
    } catch (err) {
      result.error = err instanceof Error ? err.message : String(err);
      progress(`probe ${page.id} failed: ${result.error}`);
    }
    results.push(result);
  }
  return results;
}
