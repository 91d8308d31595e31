import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolResult } from '@browser-agent/protocol';
import type { ActivityEntry } from '../../shared/messages';
import type { RecordedStep } from '../../shared/recordings';
import type { HandlerContext } from '../handlerContext';
import { Recorder, type RecorderDeps } from './recorder';

const stored: RecordedStep[] = [];
vi.mock('../../shared/recordings', () => ({
  addStep: (step: RecordedStep) => {
    stored.push(step);
    return Promise.resolve();
  },
}));

function entry(id: string, tool = 'browser_click'): ActivityEntry {
  return {
    id,
    sessionId: 's1',
    client: 'agent',
    tool,
    args: '{}',
    details: '{}',
    host: 'example.test',
    summary: undefined,
    startedAt: Date.now(),
    durationMs: 1,
    outcome: 'ok',
  };
}

const IMAGE: ToolResult = {
  content: [{ type: 'image', data: btoa('jpeg'), mimeType: 'image/jpeg' }],
};

/** A context whose tab has no dialog; the capture's own work is the fake screenshot. */
const fakeContext = {
  currentTab: () => Promise.resolve({ state: { dialog: undefined }, cdp: {} }),
} as unknown as HandlerContext;

function recorder(overrides: Partial<RecorderDeps>): Recorder {
  return new Recorder({
    contextFor: () => Promise.resolve(fakeContext),
    screenshot: () => Promise.resolve(IMAGE),
    changed: () => undefined,
    busy: () => false,
    ...overrides,
  });
}

beforeEach(() => {
  stored.length = 0;
});

describe('Recorder.keep', () => {
  it('returns before the capture ends and stores the steps in the order of their calls', async () => {
    let release = (): void => undefined;
    const firstShot = new Promise<ToolResult>((resolve) => (release = () => resolve(IMAGE)));
    const shots = [firstShot, Promise.resolve(IMAGE)];
    const changed = vi.fn();
    const r = recorder({ screenshot: () => shots.shift() ?? Promise.resolve(IMAGE), changed });
    r.keep(entry('a'));
    r.keep(entry('b'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stored, 'nothing stored while the first capture runs').toEqual([]);
    release();
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(2));
    expect(stored.map((s) => s.image !== undefined)).toEqual([true, true]);
    expect(stored.map((s) => s.tool)).toEqual(['browser_click', 'browser_click']);
    expect(stored[0]?.at).toBeLessThanOrEqual(stored[1]?.at ?? 0);
  });

  it('takes no picture when a call of the session is waiting: the step is kept without one', async () => {
    const screenshot = vi.fn(() => Promise.resolve(IMAGE));
    const changed = vi.fn();
    const r = recorder({ screenshot, changed, busy: (sessionId) => sessionId === 's1' });
    r.keep(entry('a', 'browser_navigate'));
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    expect(screenshot).not.toHaveBeenCalled();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tool).toBe('browser_navigate');
    expect(stored[0]?.image).toBeUndefined();
  });
});

describe('Recorder markers', () => {
  it('marks only a press made during the step’s own call, not the next call’s', async () => {
    const state = { dialog: undefined, lastPress: undefined as unknown };
    const cdp = {
      send: () => Promise.resolve({ cssVisualViewport: { clientWidth: 100, clientHeight: 100 } }),
    };
    const context = {
      currentTab: () => Promise.resolve({ state, cdp }),
    } as unknown as HandlerContext;
    const navigate = { ...entry('nav', 'browser_navigate'), startedAt: Date.now() - 50 };
    const click = { ...entry('click'), startedAt: Date.now() + 10 };
    // The navigate's capture runs late: the click (the next call) has pressed by then.
    state.lastPress = { x: 50, y: 25, at: click.startedAt };
    const r = recorder({ contextFor: () => Promise.resolve(context) });
    await r.step(navigate);
    await r.step(click);
    expect(stored.map((s) => s.marker)).toEqual([undefined, { x: 0.5, y: 0.25 }]);
  });
});
