import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../shared/messages';
import { EXTENSION_ID } from '../testing/relaySender';

const SECRET = 'c2VjcmV0LW9mLXRoZS1sYXVuY2hlZC1icm93c2VyIQ==';
const STARTUP_TAB = '0123456789ABCDEF0123456789ABCDEF';

function handoff(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'launch_handoff',
    pairing: { secret: SECRET, label: 'Launched browser' },
    bridgePort: 41234,
    noBrowserPolicy: true,
    spareTarget: STARTUP_TAB,
    ...overrides,
  };
}

// The storage areas are the worker's memory here (an incognito context: shared/storageAreas.ts),
// so what the hand-off stored can be read back without a browser.
beforeEach(() => {
  vi.resetModules();
  vi.stubGlobal('chrome', {
    extension: { inIncognitoContext: true },
    runtime: {
      id: EXTENSION_ID,
      getURL: (path: string) => `chrome-extension://${EXTENSION_ID}/${path}`,
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

async function worker() {
  const { takePipeHandoff, exposePipeHandoff, PIPE_HANDOFF_KEY, WAITING_KEY } =
    await import('./pipeHandoff');
  const pairings = await import('../../shared/pairings');
  const steps: string[] = [];
  const deps = {
    noPolicyFiles: () => void steps.push('no policy files'),
    adoptSpareTab: (targetId: string) => {
      steps.push(`spare ${targetId}`);
      return Promise.resolve(true);
    },
    applySettings: async (patch: Partial<Settings>) => {
      const kept = await pairings.loadPairings();
      steps.push(`settings ${JSON.stringify(patch)} with ${kept.length} pairing(s)`);
    },
  };
  return {
    takePipeHandoff,
    exposePipeHandoff,
    PIPE_HANDOFF_KEY,
    WAITING_KEY,
    pairings,
    steps,
    deps,
  };
}

describe("the launching daemon's hand-off over the debugging pipe", () => {
  it('names the startup tab, keeps the pairing, then starts the link', async () => {
    const w = await worker();
    expect(await w.takePipeHandoff(handoff(), w.deps)).toBe(true);
    expect(w.steps).toEqual([
      `spare ${STARTUP_TAB}`,
      'no policy files',
      'settings {"bridgePort":41234,"keepWorkingWhenPanelClosed":true} with 1 pairing(s)',
    ]);
    const [kept] = await w.pairings.loadPairings();
    expect(kept?.secret).toBe(SECRET);
  });

  it('starts the link without waiting for the startup tab, and answers once both are done', async () => {
    const w = await worker();
    let adopted: (taken: boolean) => void = () => undefined;
    const deps = {
      ...w.deps,
      adoptSpareTab: (targetId: string) => {
        w.steps.push(`spare ${targetId}`);
        return new Promise<boolean>((resolve) => (adopted = resolve));
      },
    };
    let answered = false;
    const taken = w.takePipeHandoff(handoff(), deps).then((ok) => (answered = ok));
    await vi.waitFor(() => expect(w.steps).toHaveLength(3));
    expect(w.steps[2], 'the link starts while Chrome still lists its targets').toMatch(/^settings/);
    expect(answered).toBe(false);
    adopted(true);
    await taken;
    expect(answered).toBe(true);
  });

  it('leaves the startup tab alone when the daemon found none', async () => {
    const w = await worker();
    expect(await w.takePipeHandoff(handoff({ spareTarget: null }), w.deps)).toBe(true);
    expect(w.steps.some((s) => s.startsWith('spare'))).toBe(false);
  });

  it.each([
    ['no startup tab field', { ...handoff(), spareTarget: undefined }],
    ['a startup tab that is no target id', handoff({ spareTarget: '../../etc' })],
    ['a field it does not know', handoff({ settings: { keepWorkingWhenPanelClosed: false } })],
    ['another kind', handoff({ kind: 'settings' })],
    ['a port out of range', handoff({ bridgePort: 70_000 })],
    ['a secret with a quote in it', handoff({ pairing: { secret: 'a"b', label: 'x' } })],
    ['a string', JSON.stringify(handoff())],
    ['nothing', undefined],
  ])('is refused with %s, storing and starting nothing', async (_name, raw) => {
    const w = await worker();
    expect(await w.takePipeHandoff(raw, w.deps)).toBe(false);
    expect(w.steps).toEqual([]);
    expect(await w.pairings.loadPairings()).toEqual([]);
  });
});

describe('the entry point on the worker', () => {
  it('takes a call made after the script ran, and cannot be replaced', async () => {
    const w = await worker();
    const scope: Record<string, unknown> = {};
    const take = vi.fn(() => Promise.resolve(true));
    w.exposePipeHandoff(scope, take);
    const entry = scope[w.PIPE_HANDOFF_KEY] as (raw: unknown) => Promise<boolean>;
    expect(await entry(handoff())).toBe(true);
    expect(take).toHaveBeenCalledWith(handoff());
    expect(() => {
      scope[w.PIPE_HANDOFF_KEY] = () => Promise.resolve(false);
    }).toThrow();
    expect(Object.keys(scope)).toEqual([]);
  });

  it('takes a call that came before the script ran, once, and answers it', async () => {
    const w = await worker();
    let answered: Promise<boolean> | undefined;
    const scope: Record<string, unknown> = {
      [w.WAITING_KEY]: { handoff: handoff(), resolve: (p: Promise<boolean>) => (answered = p) },
    };
    const take = vi.fn(() => Promise.resolve(true));
    w.exposePipeHandoff(scope, take);
    expect(await answered).toBe(true);
    expect(take).toHaveBeenCalledTimes(1);
    expect(take).toHaveBeenCalledWith(handoff());
    expect(w.WAITING_KEY in scope).toBe(false);
  });
});
