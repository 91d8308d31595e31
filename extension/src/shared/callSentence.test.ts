import { describe, expect, it, vi } from 'vitest';
import { callSentence, hostOf, timeOfDay } from './callSentence';
import { friendlyClientName } from './clientNames';
import type { ActivityEntry } from './messages';

function entry(patch: Partial<ActivityEntry>): ActivityEntry {
  return {
    id: 'r1',
    sessionId: 's1',
    client: 'Claude Code',
    tool: 'browser_click',
    args: '{}',
    details: '{}',
    host: 'github.com',
    summary: 'Clicked button "Sign in"',
    startedAt: Date.UTC(2026, 0, 1, 10, 42, 7),
    durationMs: 84,
    outcome: 'ok',
    ...patch,
  };
}

describe('callSentence', () => {
  it('reads as a sentence with the host and the duration', () => {
    expect(callSentence(entry({}))).toBe('Clicked button "Sign in" on github.com, 84 ms');
  });

  it('names the tool by its title when it failed, and the failure in words', () => {
    expect(callSentence(entry({ summary: undefined, outcome: 'PAUSED', durationMs: 3 }))).toBe(
      'Click on github.com failed: the agent is paused, 3 ms',
    );
    expect(
      callSentence(entry({ summary: undefined, outcome: 'ELEMENT_NOT_FOUND', durationMs: 3 })),
    ).toBe('Click on github.com failed: the element was not found, 3 ms');
    expect(
      callSentence(entry({ summary: undefined, outcome: 'SOME_NEWER_CODE', durationMs: 3 })),
      'a code this release does not know is shown as it is',
    ).toBe('Click on github.com failed: SOME_NEWER_CODE, 3 ms');
  });

  it('says what a wait waits for, and reads an agent coming and going as such', () => {
    const wait = entry({
      tool: 'browser_wait_for',
      summary: undefined,
      subject: 'the text "Done"',
      outcome: undefined,
    });
    expect(callSentence(wait)).toBe('Wait for the text "Done" on github.com…');
    expect(callSentence(entry({ tool: '', event: 'connected' }))).toBe('connected');
    expect(callSentence(entry({ tool: '', event: 'left' }))).toBe('left');
  });

  it('does not repeat a host the sentence already names, and ends a running call with …', () => {
    expect(
      callSentence(
        entry({ tool: 'browser_navigate', summary: 'Navigated to https://github.com/x' }),
      ),
    ).toBe('Navigated to https://github.com/x, 84 ms');
    expect(callSentence(entry({ summary: undefined, outcome: undefined }))).toBe(
      'Click on github.com…',
    );
  });

  it('shows which files an upload handed to which origin', () => {
    expect(
      callSentence(
        entry({
          tool: 'browser_file_upload',
          summary: undefined,
          args: 'files: /a/cv.txt → https://x.test',
        }),
      ),
    ).toContain('(files: /a/cv.txt → https://x.test)');
  });

  it('takes hosts of web pages only, and writes the time of day with seconds', () => {
    expect(hostOf('https://github.com:8443/login')).toBe('github.com:8443');
    expect(hostOf('about:blank')).toBeUndefined();
    expect(hostOf('not a url')).toBeUndefined();
    expect(timeOfDay(Date.now())).toMatch(/^\d\d:\d\d:\d\d$/);
  });
});

describe('friendlyClientName', () => {
  it('names known clients as people know them and leaves unknown ids as given', () => {
    expect(friendlyClientName('claude-ai')).toBe('Claude Desktop');
    expect(friendlyClientName('cursor-vscode')).toBe('Cursor');
    expect(friendlyClientName('Visual Studio Code')).toBe('VS Code');
    expect(friendlyClientName('my-own-agent')).toBe('my-own-agent');
  });
});

describe('timeOfDay', () => {
  it('builds its DateTimeFormat at the first use, not when the worker loads the module', async () => {
    vi.resetModules();
    const Real = Intl.DateTimeFormat;
    let made = 0;
    Intl.DateTimeFormat = new Proxy(Real, {
      construct(target, args: ConstructorParameters<typeof Real>) {
        made += 1;
        return new target(...args);
      },
    });
    try {
      const fresh = await import('./callSentence');
      expect(made, 'loading the module (the worker does) formats nothing').toBe(0);
      expect(fresh.timeOfDay(new Date(2026, 0, 1, 10, 42, 7).getTime())).toBe('10:42:07');
      fresh.timeOfDay(Date.now());
      expect(made).toBe(1);
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });
});
