import { describe, expect, it } from 'vitest';
import type { ConsoleEntry } from '../tabStates';
import { formatEntries } from './console';
import { handlers } from '../testing/handlers';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeContext, fakeTab } from '../testing/fakeContext';

const ENTRIES: ConsoleEntry[] = [
  { level: 'debug', text: 'tracing', timestamp: 1, nav: 0, seq: 0 },
  { level: 'log', text: 'hello', timestamp: 2, nav: 0, seq: 1 },
  {
    level: 'info',
    text: 'ready',
    location: 'http://127.0.0.1/app.js:3',
    timestamp: 3,
    nav: 0,
    seq: 2,
  },
  { level: 'warning', text: 'deprecated', timestamp: 4, nav: 0, seq: 3 },
  {
    level: 'error',
    text: 'boom',
    location: 'http://127.0.0.1/app.js:9',
    timestamp: 5,
    nav: 0,
    seq: 4,
  },
];

async function messages(level?: 'all' | 'error' | 'warning' | 'info' | 'debug', entries = ENTRIES) {
  const tab = fakeTab(fakeCdp({}));
  tab.state.console.push(...entries);
  tab.state.consoleSeq = entries.length;
  const result = await handlers.browser_console_messages(
    level === undefined ? {} : { level },
    fakeContext([tab]),
  );
  const part = result.content[0];
  return part?.type === 'text' ? part.text : '';
}

describe('browser_console_messages', () => {
  it('filters by level, most severe first in the scale', async () => {
    expect(await messages('error')).toContain('```\n[error] boom (http://127.0.0.1/app.js:9)\n```');
    expect(await messages('warning')).toContain('```\n[warning] deprecated\n[error] boom');
    expect(await messages('info')).toContain(
      '```\n[log] hello\n[info] ready (http://127.0.0.1/app.js:3)\n[warning] deprecated\n[error] boom',
    );
    expect(await messages('debug')).toContain('```\n[debug] tracing\n[log] hello');
    expect(await messages()).toBe(await messages('info'));
    expect(await messages('all')).toBe(await messages('debug'));
    expect(await messages()).toMatch(/^### Console messages \(untrusted page content\)\n/);
  });

  it('shows the last navigation only, unless all', async () => {
    const tab = fakeTab(fakeCdp({}));
    tab.state.console.push(
      { level: 'log', text: 'old page', timestamp: 1, nav: 0, seq: 0 },
      { level: 'log', text: 'new page', timestamp: 2, nav: 1, seq: 1 },
    );
    tab.state.consoleSeq = 2;
    tab.state.consoleNav = 1;
    const text = async (all?: boolean) => {
      const part = (await handlers.browser_console_messages(all ? { all } : {}, fakeContext([tab])))
        .content[0];
      return part?.type === 'text' ? part.text : '';
    };
    expect(await text()).toContain('new page');
    expect(await text()).not.toContain('old page');
    expect(await text(true)).toContain('old page');
  });

  it('says so when there is nothing to show', async () => {
    expect(await messages('all', [])).toBe('No console messages.');
    expect(
      await messages('error', [{ level: 'log', text: 'x', timestamp: 1, nav: 0, seq: 0 }]),
    ).toBe('No console messages.');
  });

  it('keeps the newest messages when there are too many', () => {
    const many: ConsoleEntry[] = Array.from({ length: 2_000 }, (_, i) => ({
      level: 'log',
      text: `message ${i} ${'x'.repeat(50)}`,
      timestamp: i,
      nav: 0,
      seq: i,
    }));
    const out = formatEntries(many);
    expect(out.length).toBeLessThan(52_000);
    expect(out).toMatch(/^\[… \d+ older messages omitted\]\n/);
    expect(out.endsWith(`message 1999 ${'x'.repeat(50)}`)).toBe(true);
  });
});
