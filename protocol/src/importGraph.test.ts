/** The protocol package has no import circle, type-only imports included. */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { namedCircles } from '../../testkit/src/importGraph.js';

const SRC = dirname(fileURLToPath(import.meta.url));

describe('the protocol package', () => {
  it('has no import circle', () => {
    expect(namedCircles(SRC)).toEqual([]);
  });
});
