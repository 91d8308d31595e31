/**
 * Issue #18 item 10: browser_pdf_save behind --caps pdf writes the page as a new PDF file in the
 * output directory (page-<time>.pdf, or the filename given), and is not listed without the cap.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, callTool, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

test('browser_pdf_save saves the page as a PDF in the output directory', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'output');
  const client = await agentOn(bridge, site.url('/titled?title=Printable'), {
    flags: ['--caps', 'pdf', '--output-dir', outputDir],
  });
  const saved = await callOk(client, 'browser_pdf_save', {});
  expect(saved.text).toMatch(/Page saved as PDF: \S*page-[^\s]+\.pdf/);
  const files = (await readdir(outputDir)).filter((f) => /^page-.*\.pdf$/.test(f));
  expect(files).toHaveLength(1);
  const bytes = await readFile(path.join(outputDir, files[0] ?? ''));
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  const named = await callOk(client, 'browser_pdf_save', { filename: 'report.pdf' });
  expect(named.text).toContain('report.pdf');
  expect((await readFile(path.join(outputDir, 'report.pdf'))).subarray(0, 5).toString()).toBe(
    '%PDF-',
  );
  const again = await callTool(client, 'browser_pdf_save', { filename: 'report.pdf' });
  expect(again.isError).toBe(true);
  expect(again.text).toContain('a file of that name exists');
});

test('browser_pdf_save is listed only with --caps pdf', async ({ bridge }) => {
  const plain = await bridge.connectClient('no-pdf');
  const names = (await plain.listTools()).tools.map((t) => t.name);
  expect(names).not.toContain('browser_pdf_save');
  const withPdf = await bridge.connectClient('with-pdf', { flags: ['--caps', 'pdf'] });
  expect((await withPdf.listTools()).tools.map((t) => t.name)).toContain('browser_pdf_save');
});
