/**
 * The extension's import graph has no circle, type-only imports included: a circle says some
 * state is declared in the wrong room (docs/architecture.md, folder map). The graph helpers are
 * shared with the other packages' checks (testkit/src/importGraph.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importsOf, namedCircles, sources } from '../../testkit/src/importGraph.ts';

const SRC = path.dirname(fileURLToPath(import.meta.url));

describe('the extension', () => {
  it('has no import circle', () => {
    expect(sources(SRC).length).toBeGreaterThan(50);
    expect(namedCircles(SRC)).toEqual([]);
  });

  it('sees a type-only circle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'a.ts']]);
    const text = "import type { X } from './tabStates';";
    expect(importsOf(path.join(SRC, 'background/handlerContext.ts'), text)).toEqual([
      path.join(SRC, 'background/tabStates.ts'),
    ]);
  });
});

/**
 * Floors: the number of files on the longest chain of imports, from a file that imports nothing
 * of the extension up to one nothing imports (an entry). Every floor is a file a change at the
 * bottom may ripple through. `background/testing/` is left out: only tests import it.
 */
export function floors(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const longest = new Map<string, string[]>();
  const chainFrom = (file: string): string[] => {
    const known = longest.get(file);
    if (known !== undefined) return known;
    let best: string[] = [];
    for (const next of graph.get(file) ?? []) {
      const chain = chainFrom(next);
      if (chain.length > best.length) best = chain;
    }
    const chain = [file, ...best];
    longest.set(file, chain);
    return chain;
  };
  let top: string[] = [];
  for (const file of graph.keys()) {
    const chain = chainFrom(file);
    if (chain.length > top.length) top = chain;
  }
  return top;
}

/** The files of `background/tools/` (other than index.ts) that a handler file imports. */
export function handlerImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const tools = path.join(SRC, 'background/tools');
  const isHandler = (file: string): boolean =>
    path.dirname(file) === tools && path.basename(file) !== 'index.ts';
  return [...graph].flatMap(([file, imports]) =>
    isHandler(file)
      ? imports
          .filter((to) => path.dirname(to) === tools)
          .map((to) => `${path.relative(SRC, file)} → ${path.relative(SRC, to)}`)
      : [],
  );
}

/** Issue #24: 18 floors before the hubs were split and the misplaced constants and types moved. */
// 16 since #25: the permission gate judges the frame a target lives in (approvals → elements).
const MAX_FLOORS = 16;

describe('the extension stands in rooms', () => {
  const product = sources(SRC).filter((f) => !f.includes(`${path.sep}testing${path.sep}`));
  const graph = new Map(product.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]));

  it(`stands on at most ${MAX_FLOORS} import floors`, () => {
    const chain = floors(graph).map((f) => path.relative(SRC, f));
    // The chain is in the message: that is where to cut when this fails.
    expect(chain.length, chain.join(' → ')).toBeLessThanOrEqual(MAX_FLOORS);
    expect(
      floors(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['d.ts', ['c.ts']],
        ]),
      ),
    ).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('has no handler that imports another handler (tools/index.ts spreads them)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(handlerImports(graph)).toEqual([]);
    const tools = (name: string): string => path.join(SRC, 'background/tools', name);
    const sample = new Map([
      [tools('routing.ts'), [tools('network.ts'), path.join(SRC, 'background/handlerContext.ts')]],
      [tools('index.ts'), [tools('routing.ts')]],
    ]);
    expect(handlerImports(sample)).toEqual([
      'background/tools/routing.ts → background/tools/network.ts',
    ]);
  });
});
