/**
 * The last gaps of #18 against Playwright MCP: screenshots in CSS pixels (its `scale`) on a
 * high-DPR page, `--save-session`, and upload paths relative to the client's first root.
 */
import { expect, test, callOk, callToolUntyped } from '../harness.js';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('screenshots are in CSS pixels by default and in device pixels with scale device', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('dpr-client', {
    flags: ['--viewport', '400x300', '--mobile'],
  });
  await callOk(client, 'browser_navigate', { url: site.url('/dpr.html') });
  const probe = await callOk(client, 'browser_evaluate', {
    function: '() => ({ w: innerWidth, h: innerHeight, dpr: devicePixelRatio })',
  });
  expect(probe.text).toContain('"dpr": 2');
  const w = Number(/"w": (\d+)/.exec(probe.text)?.[1]);
  const h = Number(/"h": (\d+)/.exec(probe.text)?.[1]);
  expect(w).toBeGreaterThan(100);

  const css = await callOk(client, 'browser_take_screenshot', {});
  expect(pngSize(css.images[0]?.data ?? '')).toEqual({ width: w, height: h });
  expect(css.text).toContain(`${w}×${h} px`);
  const explicit = await callToolUntyped(client, 'browser_take_screenshot', { scale: 'css' });
  expect(pngSize(explicit.images[0]?.data ?? '')).toEqual({ width: w, height: h });

  const device = await callToolUntyped(client, 'browser_take_screenshot', { scale: 'device' });
  expect(device.isError).toBe(false);
  expect(pngSize(device.images[0]?.data ?? '')).toEqual({ width: 2 * w, height: 2 * h });
  expect(device.text).toContain(`${2 * w}×${2 * h} px`);
});
