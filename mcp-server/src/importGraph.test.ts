/**
 * The MCP server's import graph (server, daemon, commands, shared) has no circle, type-only
 * imports included: a circle says some state is declared in the wrong room, as the one through
 * the `ToolCaller` type did before it moved beside `ToolResponse` (docs/architecture.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, namedCircles, sources } from '../../testkit/src/importGraph.js';

const SRC = path.dirname(fileURLToPath(import.meta.url));

describe('the MCP server', () => {
  it('has no import circle', () => {
    expect(sources(SRC).length).toBeGreaterThan(50);
    expect(namedCircles(SRC)).toEqual([]);
  });

  it('reads NodeNext specifiers, type-only, re-exports and dynamic imports alike', () => {
    const file = path.join(SRC, 'server/steps/storageStateFiles.ts');
    const text = [
      "import type { ToolCaller } from '../response/toolResponse.js';",
      "export { newFile } from '../outputFiles/newFile.js';",
      "const m = await import('../session/inProcessDaemon.js');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf(file, text)).toEqual([
      path.join(SRC, 'server/response/toolResponse.ts'),
      path.join(SRC, 'server/outputFiles/newFile.ts'),
      path.join(SRC, 'server/session/inProcessDaemon.ts'),
    ]);
  });
});
