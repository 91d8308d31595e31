/**
 * Rewrites one generated section of docs/benchmarks.md in place, between
 *   <!-- bench:<name>:start --> and <!-- bench:<name>:end -->
 * leaving the hand-written text around it alone, then formats the file with the repo's Prettier
 * config so `pnpm lint` stays green after a run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import prettier from 'prettier';
import { BENCHMARKS_DOC } from '../paths.js';

export type SectionName = 'results' | 'load' | 'soak' | 'real-pages';

export async function writeDocSection(name: SectionName, markdown: string): Promise<string> {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const doc = await readFile(BENCHMARKS_DOC, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from)
    throw new Error(`${BENCHMARKS_DOC} has no "${start}" … "${end}" section to fill.`);
  const next = `${doc.slice(0, from + start.length)}\n\n${markdown.trim()}\n\n${doc.slice(to)}`;
  const config = (await prettier.resolveConfig(BENCHMARKS_DOC)) ?? {};
  await writeFile(
    BENCHMARKS_DOC,
    await prettier.format(next, { ...config, filepath: BENCHMARKS_DOC }),
  );
  return BENCHMARKS_DOC;
}
