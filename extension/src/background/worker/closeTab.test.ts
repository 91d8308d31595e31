import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DebuggerHub } from '../debuggerHub';
import type { TabState } from '../tabStates';
import { closeAgentTab } from './closeTab';

type Listener = (params: unknown, sessionId?: string) => void;

/** An attached tab whose page asks before leaving: Chrome holds the remove until it is answered. */
function askingTab(options: { attached: boolean; asks: boolean }) {
  const listeners = new Map<string, Set<Listener>>();
  const emit = (method: string, params: unknown): void => {
    for (const l of listeners.get(method) ?? []) l(params);
  };
  const events: string[] = [];
  let answered: () => void = () => undefined;
  const hub = {
    isAttached: () => options.attached,
    detach: () => {
      events.push('detach');
      return Promise.resolve();
    },
    client: () => ({
      on: (method: string, listener: Listener) => {
        const set = listeners.get(method) ?? new Set();
        set.add(listener);
        listeners.set(method, set);
        return () => set.delete(listener);
      },
      send: (method: string, params: unknown) => {
        events.push(`${method} ${JSON.stringify(params)}`);
        if (method === 'Page.handleJavaScriptDialog') answered();
        return Promise.resolve({});
      },
    }),
  } as unknown as DebuggerHub;
  vi.stubGlobal('chrome', {
    tabs: {
      remove: () => {
        events.push('remove');
        if (!options.asks) return Promise.resolve();
        return new Promise<void>((resolve) => {
          answered = resolve;
          // What Chrome does for a page with beforeunload: the dialog opens, the remove waits.
          emit('Page.javascriptDialogOpening', { type: 'beforeunload', message: '' });
        });
      },
    },
  });
  return { hub, events, listeners };
}

afterEach(() => vi.unstubAllGlobals());

describe('closeAgentTab', () => {
  it('answers "leave" when the page asks before leaving, and detaches only after the tab went', async () => {
    const { hub, events, listeners } = askingTab({ attached: true, asks: true });
    // With the debugger detached first (the old order), this remove never settled.
    expect(await closeAgentTab(hub, 7, undefined)).toBe(true);
    expect(events).toEqual(['remove', 'Page.handleJavaScriptDialog {"accept":true}', 'detach']);
    expect(listeners.get('Page.javascriptDialogOpening')?.size).toBe(0);
  });

  it('says nothing was asked for a page without beforeunload', async () => {
    const { hub, events } = askingTab({ attached: true, asks: false });
    expect(await closeAgentTab(hub, 7, undefined)).toBe(false);
    expect(events).toEqual(['remove', 'detach']);
  });

  it('answers a beforeunload dialog already open before removing', async () => {
    const { hub, events } = askingTab({ attached: true, asks: false });
    const state = { dialog: { type: 'beforeunload', message: '', defaultPrompt: '' } };
    expect(await closeAgentTab(hub, 7, state as unknown as TabState)).toBe(true);
    expect(events).toEqual(['Page.handleJavaScriptDialog {"accept":true}', 'remove', 'detach']);
  });

  it("ignores other dialogs and frames: only the tab page's beforeunload is answered", async () => {
    const { hub, events, listeners } = askingTab({ attached: true, asks: false });
    const closing = closeAgentTab(hub, 7, undefined);
    for (const l of listeners.get('Page.javascriptDialogOpening') ?? []) {
      l({ type: 'alert', message: 'x' });
      l({ type: 'beforeunload', message: '' }, 'child-session');
    }
    expect(await closing).toBe(false);
    expect(events).toEqual(['remove', 'detach']);
  });

  it('removes a tab never attached without a debugger', async () => {
    const { hub, events } = askingTab({ attached: false, asks: false });
    expect(await closeAgentTab(hub, 7, undefined)).toBe(false);
    expect(events).toEqual(['remove']);
  });
});
