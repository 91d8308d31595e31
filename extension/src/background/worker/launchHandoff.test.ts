import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LaunchHandoff, Settings } from '../../shared/messages';
import { acceptedHandoff } from './launchHandoff';
import { EXTENSION_ID, handoffContext, relayPageSender } from '../testing/relaySender';

const ID = EXTENSION_ID;
const RELAY = `chrome-extension://${ID}/src/sidepanel/index.html?port=41234&launch=1&policy=none`;
const SECRET = 'c2VjcmV0LW9mLXRoZS1sYXVuY2hlZC1icm93c2VyIQ==';

const incognito = handoffContext(true);

/** The relay page an isolated launch opens: the top frame of an incognito tab of its context. */
function relayPage(overrides: Partial<chrome.runtime.MessageSender> = {}) {
  return relayPageSender(RELAY, true, overrides);
}

function handoff(overrides: Record<string, unknown> = {}): LaunchHandoff {
  return {
    kind: 'launch_handoff',
    pairing: { secret: SECRET, label: 'Launched browser' },
    bridgePort: 41234,
    noBrowserPolicy: true,
    ...overrides,
  };
}

describe('the launch hand-off a worker takes', () => {
  it('is taken from its own relay page in an incognito context', () => {
    expect(acceptedHandoff(handoff(), relayPage(), incognito)).toEqual(handoff());
    expect(acceptedHandoff(handoff({ pairing: null }), relayPage(), incognito)).toEqual(
      handoff({ pairing: null }),
    );
  });

  it('is refused by a regular worker, whose pairing is in chrome.storage', () => {
    expect(acceptedHandoff(handoff(), relayPage(), { ...incognito, inMemory: false })).toBe(
      undefined,
    );
  });

  it.each<[string, Partial<chrome.runtime.MessageSender> | undefined]>([
    ['no sender', undefined],
    ['another extension', { id: 'otherextension' }],
    ['a content script in a web page', { url: 'https://evil.test/#launch=1' }],
    [
      'a web page naming our page in its query',
      { url: `https://evil.test/src/sidepanel/index.html?launch=1` },
    ],
    ['the side panel (no launch)', { url: `chrome-extension://${ID}/src/sidepanel/index.html` }],
    ['another page of ours', { url: `chrome-extension://${ID}/src/sidepanel/other.html?launch=1` }],
    ['a subframe', { frameId: 3 }],
    ['a tab of a regular window', { tab: { id: 7, incognito: false } as chrome.tabs.Tab }],
    ['no tab at all', { tab: undefined }],
    ['another origin than its URL says', { origin: 'https://evil.test' }],
    ['an unparsable URL', { url: 'not a url' }],
  ])('is refused from %s', (_name, sender) => {
    const from = sender === undefined ? undefined : relayPage(sender);
    expect(acceptedHandoff(handoff(), from, incognito)).toBe(undefined);
  });

  it.each<[string, unknown]>([
    ['another kind', handoff({ kind: 'settings' })],
    ['no port', { ...handoff(), bridgePort: undefined }],
    ['port 0', handoff({ bridgePort: 0 })],
    ['port 65536', handoff({ bridgePort: 65_536 })],
    ['a fractional port', handoff({ bridgePort: 1.5 })],
    ['a port as text', handoff({ bridgePort: '41234' })],
    ['a policy hint as text', handoff({ noBrowserPolicy: 'true' })],
    ['a secret that is not base64', handoff({ pairing: { secret: 'a.b', label: 'x' } })],
    ['an empty secret', handoff({ pairing: { secret: '', label: 'x' } })],
    ['a huge secret', handoff({ pairing: { secret: 'A'.repeat(513), label: 'x' } })],
    ['a secret as a number', handoff({ pairing: { secret: 42, label: 'x' } })],
    ['no label', handoff({ pairing: { secret: SECRET } })],
    ['a long label', handoff({ pairing: { secret: SECRET, label: 'x'.repeat(101) } })],
    ['a pairing with more fields', handoff({ pairing: { secret: SECRET, label: 'x', id: 'y' } })],
    ['a missing pairing', { ...handoff(), pairing: undefined }],
    ['a field it does not know', handoff({ settings: { keepWorkingWhenPanelClosed: false } })],
    ['a string', JSON.stringify(handoff())],
  ])('is refused with %s', (_name, message) => {
    expect(acceptedHandoff(message, relayPage(), incognito)).toBe(undefined);
  });
});

describe('taking the hand-off in an incognito worker', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubGlobal('chrome', {
      extension: { inIncognitoContext: true },
      runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}/${path}` },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A fresh worker: modules (and so its memory areas) loaded anew. */
  async function worker() {
    const { takeHandoff, forgetHandedPairing, chromeHandoffContext } =
      await import('./launchHandoff');
    const pairings = await import('../../shared/pairings');
    const steps: string[] = [];
    const deps = {
      where: chromeHandoffContext(),
      noPolicyFiles: () => void steps.push('no policy files'),
      applySettings: async (patch: Partial<Settings>) => {
        const kept = await pairings.loadPairings();
        steps.push(`settings ${JSON.stringify(patch)} with ${kept.length} pairing(s)`);
      },
    };
    return { takeHandoff, forgetHandedPairing, pairings, steps, deps };
  }

  it('keeps the pairing in its memory before it starts the link', async () => {
    const w = await worker();
    expect(await w.takeHandoff(handoff(), relayPage(), w.deps)).toBe(true);
    expect(w.steps).toEqual([
      'no policy files',
      'settings {"bridgePort":41234,"keepWorkingWhenPanelClosed":true} with 1 pairing(s)',
    ]);
    const [kept] = await w.pairings.loadPairings();
    expect(kept?.secret).toBe(SECRET);
    expect(kept?.label).toBe('Launched browser');
  });

  it('keeps one launch pairing when the hand-off comes again, with another secret or the same', async () => {
    const w = await worker();
    await w.takeHandoff(handoff(), relayPage(), w.deps);
    await w.takeHandoff(handoff(), relayPage(), w.deps);
    const next = handoff({ pairing: { secret: 'bmV4dA==', label: 'Launched browser' } });
    await w.takeHandoff(next, relayPage(), w.deps);
    expect((await w.pairings.loadPairings()).map((p) => p.secret)).toEqual(['bmV4dA==']);
  });

  it('stores nothing and starts nothing when it refuses', async () => {
    const w = await worker();
    const content = relayPage({ url: 'https://evil.test/', origin: 'https://evil.test' });
    expect(await w.takeHandoff(handoff(), content, w.deps)).toBe(false);
    expect(await w.takeHandoff(handoff({ bridgePort: -1 }), relayPage(), w.deps)).toBe(false);
    expect(w.steps).toEqual([]);
    expect(await w.pairings.loadPairings()).toEqual([]);
  });

  it('is lost with the worker: a restarted one has no pairing until handed it again', async () => {
    const first = await worker();
    await first.takeHandoff(handoff(), relayPage(), first.deps);
    vi.resetModules();
    const restarted = await worker();
    expect(await restarted.pairings.loadPairings()).toEqual([]);
  });

  it('forgets a handed pairing when the page says so, for the link to tell the daemon', async () => {
    const w = await worker();
    await w.takeHandoff(handoff(), relayPage(), w.deps);
    const [kept] = await w.pairings.loadPairings();
    expect(await w.forgetHandedPairing(42, w.deps.where)).toBe(false);
    expect(await w.forgetHandedPairing('not an id!', w.deps.where)).toBe(false);
    expect(await w.pairings.loadPairings()).toHaveLength(1);
    expect(await w.forgetHandedPairing(kept?.id, w.deps.where)).toBe(true);
    expect(await w.pairings.loadPairings()).toEqual([]);
    expect(await w.pairings.forgottenPairings()).toEqual([kept?.id]);
  });

  it('leaves forgetting to chrome.storage in a regular worker', async () => {
    const w = await worker();
    const regular = { ...w.deps.where, inMemory: false };
    expect(await w.forgetHandedPairing('abc', regular)).toBe(false);
    expect(await w.pairings.forgottenPairings()).toEqual([]);
  });
});
