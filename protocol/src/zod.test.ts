/**
 * In the extension zod must never probe `new Function` (zod.ts says why: a CSP violation on the
 * worker's start). The probe is zod's module state, so each case runs in a child Node process that
 * loads the built protocol with a `Function` that counts constructions.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');

/** How many times `new Function` ran while the protocol loaded and an object schema parsed. */
function probes(asExtension: boolean): number {
  const script = `
    let count = 0;
    const Real = Function;
    globalThis.Function = new Proxy(Real, {
      construct(target, args) { count += 1; throw new EvalError('refused by the CSP'); },
    });
    ${asExtension ? "globalThis.chrome = { runtime: { id: 'abcdefghijklmnopabcdefghijklmnop' } };" : ''}
    const { z, wireErrorSchema } = await import(${JSON.stringify(DIST)});
    const parsed = z.object({ a: z.string() }).safeParse({ a: 'x' });
    if (!parsed.success || wireErrorSchema === undefined) throw new Error('the protocol did not work');
    process.stdout.write(String(count));
  `;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script]).toString());
}

describe.skipIf(!existsSync(DIST))("the protocol's zod", () => {
  it('never probes new Function in an extension (chrome.runtime.id present)', () => {
    expect(probes(true)).toBe(0);
  });

  it('in Node (the server, the daemon) zod probes as it always did', () => {
    expect(probes(false)).toBe(1);
  });
});
