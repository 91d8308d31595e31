import { describe, expect, it } from 'vitest';
import { attachTab, type AttachDeps } from './attachTab';
import { fakeCdp } from '../testing/fakeCdp';
import { TabStates, type AttachHook } from '../tabStates';
import type { SessionRecord } from '../sessionStore';

const TAB = 7;

/** Resolves when the test says so: stands for a new tab's renderer that has not answered yet. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Lets every command already sent reach the fake, without any of the gated answers. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function deps(hooks: AttachHook[], owner: SessionRecord | undefined): AttachDeps {
  return {
    store: { ownerOf: () => Promise.resolve(owner) } as unknown as AttachDeps['store'],
    tabStates: new TabStates(),
    blocked: { record: () => undefined } as unknown as AttachDeps['blocked'],
    permissions: { gate: {}, questions: {} } as unknown as AttachDeps['permissions'],
    transactions: {
      sideEffects: { watch: () => Promise.resolve() },
    } as unknown as AttachDeps['transactions'],
    attachHooks: hooks,
    overlayFor: () => Promise.resolve(null),
  };
}

describe('attachTab', () => {
  const answered = gate();
  const cdp = fakeCdp({
    'Page.enable': () => undefined,
    'Runtime.enable': () => undefined,
    'Log.enable': () => undefined,
    // The hooks' commands: answered only once the test opens the gate.
    'Inspector.enable': () => answered.opened,
    'Page.setInterceptFileChooserDialog': () => answered.opened,
    'Fetch.enable': () => undefined,
    'Page.getFrameTree': () => ({ frameTree: { frame: { id: 'main' } } }) as never,
  });

  it('sends every hook its commands at once, and the origin guard its patterns after them', async () => {
    const crashes: AttachHook = async ({ cdp: c }) => {
      await c.send('Inspector.enable');
    };
    const choosers: AttachHook = async ({ cdp: c }) => {
      await c.send('Page.setInterceptFileChooserDialog', { enabled: true });
    };
    const owner = {
      sessionId: 's',
      tabIds: [TAB],
      policy: { allow: ['127.0.0.1'], block: [] },
    } as unknown as SessionRecord;
    const done = attachTab(deps([crashes, choosers], owner), TAB, cdp);
    await settle();
    const sent = cdp.calls.map((c) => c.method);
    // One after another, the second hook's command would wait for the first one's answer (a new
    // tab answers its first commands only once its renderer runs: ~100 ms, #26).
    expect(sent).toContain('Inspector.enable');
    expect(sent).toContain('Page.setInterceptFileChooserDialog');
    // The guard's Fetch.enable replaces the patterns a hook set: it must come last.
    expect(sent).not.toContain('Fetch.enable');
    answered.open();
    await done;
    const fetchEnable = cdp.calls.filter((c) => c.method === 'Fetch.enable');
    expect(fetchEnable).toHaveLength(1);
    expect(JSON.stringify(fetchEnable[0]?.params)).toContain('Document');
  });
});
