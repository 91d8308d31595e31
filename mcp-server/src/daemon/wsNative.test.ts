import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const chunksDir = fileURLToPath(new URL('../../dist/chunks/', import.meta.url));

describe('the daemon’s WebSocket library', () => {
  it('finds bufferutil’s native addon, so the lite-mode daemon unmasks the browser’s frames natively', () => {
    // Without it ws unmasks byte by byte in JavaScript: ~12 ms per 164 KB screenshot in lite mode.
    const require = createRequire(import.meta.url);
    const fromWs = createRequire(require.resolve('ws'));
    const bufferUtil = fromWs('bufferutil') as { unmask: (b: Buffer, m: Buffer) => void };
    expect(String(bufferUtil.unmask)).toContain('[native code]');
    const data = Buffer.from('hello');
    const mask = Buffer.from([1, 2, 3, 4]);
    bufferUtil.unmask(data, mask);
    bufferUtil.unmask(data, mask);
    expect(data.toString()).toBe('hello');
  });

  // The bundle is what runs; bundled in, bufferutil cannot find its addon and falls back to JS.
  it.skipIf(!existsSync(chunksDir))(
    'the built bundle leaves bufferutil to be required at run time',
    () => {
      const bundled = readdirSync(chunksDir)
        .filter((name) => name.endsWith('.js'))
        .map((name) => readFileSync(chunksDir + name, 'utf8'))
        .join('\n');
      expect(bundled).toContain('require("bufferutil")');
      expect(bundled).not.toContain('bufferutil/fallback.js');
    },
  );
});
