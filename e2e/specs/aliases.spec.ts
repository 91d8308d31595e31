/**
 * `--tool-names executeautomation`: the executeautomation mcp-playwright names are listed (and
 * only when asked for), and each one does its job on a fixture page, selector-based.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk, callToolUntyped } from '../harness.js';

const ALIASES = [
  'playwright_navigate',
  'playwright_screenshot',
  'playwright_click',
  'playwright_fill',
  'playwright_select',
  'playwright_hover',
  'playwright_evaluate',
  'playwright_get_content',
  'playwright_get_console_logs',
];

async function ok(
  client: Parameters<typeof callToolUntyped>[0],
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const outcome = await callToolUntyped(client, name, args);
  if (outcome.isError) throw new Error(`${name} ${JSON.stringify(args)} failed:\n${outcome.text}`);
  return outcome.text;
}

test('the executeautomation names are listed on request and work on fixture pages', async ({
  bridge,
  sandbox,
  site,
}) => {
  const plain = await bridge.connectClient('no-aliases');
  const plainNames = (await plain.listTools()).tools.map((t) => t.name);
  expect(plainNames.filter((n) => n.startsWith('playwright_'))).toEqual([]);

  const outputDir = path.join(sandbox.root, 'out');
  const client = await bridge.connectClient('ea-agent', {
    flags: ['--tool-names', 'executeautomation', '--output-dir', outputDir],
  });
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const alias of ALIASES) expect(names).toContain(alias);
  expect(names).toContain('browser_navigate');
  const fill = tools.find((t) => t.name === 'playwright_fill');
  expect(Object.keys(fill?.inputSchema.properties ?? {}).sort()).toEqual(['selector', 'value']);

  // Navigate, fill, click, read back.
  await ok(client, 'playwright_navigate', { url: site.url('/form.html') });
  await ok(client, 'playwright_fill', { selector: '#name', value: 'Ada' });
  await ok(client, 'playwright_click', { selector: 'button[type=submit]' });
  expect(await ok(client, 'playwright_get_content', { selector: '#greeting' })).toContain(
    'Hello, Ada!',
  );
  expect(await ok(client, 'playwright_get_content', {})).toContain('Hello, Ada!');
  expect(await ok(client, 'playwright_evaluate', { script: 'document.title' })).toContain('Form');

  // Select and hover.
  await ok(client, 'playwright_navigate', { url: site.url('/controls.html') });
  await ok(client, 'playwright_select', { selector: 'select[name=country]', value: 'fr' });
  expect(
    await ok(client, 'playwright_evaluate', {
      script: "document.querySelector('select[name=country]').value",
    }),
  ).toContain('fr');
  await ok(client, 'playwright_navigate', { url: site.url('/button.html') });
  await ok(client, 'playwright_evaluate', {
    script:
      "document.getElementById('button').addEventListener('mouseenter', () => { document.title = 'hovered'; })",
  });
  await ok(client, 'playwright_hover', { selector: '#button' });
  expect(
    (await callOk(client, 'browser_evaluate', { function: '() => document.title' })).text,
  ).toContain('hovered');

  // Screenshot, saved as a PNG under the output directory.
  const shot = await callToolUntyped(client, 'playwright_screenshot', {
    name: 'front page',
    savePng: true,
  });
  expect(shot.isError).toBe(false);
  expect(shot.images).toHaveLength(1);
  const file = /Saved to (\S+)/.exec(shot.text)?.[1];
  expect(file?.startsWith(path.join(outputDir, 'front_page-'))).toBe(true);
  expect(file !== undefined && existsSync(file)).toBe(true);

  // Console logs, filtered by type and text.
  await ok(client, 'playwright_navigate', { url: site.url('/console.html') });
  const errors = await ok(client, 'playwright_get_console_logs', { type: 'error' });
  expect(errors).toContain('console page error');
  expect(errors).not.toContain('console page loaded');
  const searched = await ok(client, 'playwright_get_console_logs', { search: 'warning' });
  expect(searched).toContain('console page warning');
  expect(searched).not.toContain('console page error');
});
