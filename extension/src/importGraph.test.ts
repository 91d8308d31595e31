/**
 * The extension's import graph has no circle, type-only imports included: a circle says some
 * state is declared in the wrong room (docs/architecture.md, folder map). The graph helpers are
 * shared with the other packages' checks (testkit/src/importGraph.ts).
 */
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
