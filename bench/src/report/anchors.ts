/**
 * The bar from issue 8: medians measured on a 2-core machine with headless Chromium 156, the same
 * local pages driven by the same MCP client. Copied from the issue, not measured here.
 */
export interface Anchor {
  label: string;
  playwrightMcp: string;
  chromeDevtoolsMcp: string;
  rawCdpFloor: string;
  target: string;
}

export const ANCHORS = {
  evaluate: {
    label: 'evaluate',
    playwrightMcp: '514 ms',
    chromeDevtoolsMcp: '210 ms',
    rawCdpFloor: '1.9 ms',
    target: '≤ 10 ms, ≤ 2× raw floor',
  },
  click: {
    label: 'click a button (static page, includes settle)',
    playwrightMcp: '599 ms',
    chromeDevtoolsMcp: '265 ms',
    rawCdpFloor: '47 ms',
    target: '≤ 100 ms, ≤ 2× raw floor',
  },
  type: {
    label: 'type into an input',
    playwrightMcp: '72 ms',
    chromeDevtoolsMcp: '284 ms',
    rawCdpFloor: '15 ms',
    target: '≤ 2× raw floor',
  },
  'snapshot-big-full': {
    label: 'snapshot, page of ~5,400 elements',
    playwrightMcp: '450 ms, 314k chars',
    chromeDevtoolsMcp: '1,300 ms, 165k chars',
    rawCdpFloor: '—',
    target: '≤ 300 ms, ≤ 80k chars, every control kept',
  },
  'snapshot-table-full': {
    label: 'snapshot, 1,000-row table',
    playwrightMcp: '560 ms, 273k chars',
    chromeDevtoolsMcp: '1,200 ms, 147k chars',
    rawCdpFloor: '—',
    target: '—',
  },
  spawn: {
    label: 'server spawn → tools/list',
    playwrightMcp: '590 ms',
    chromeDevtoolsMcp: '890 ms',
    rawCdpFloor: '—',
    target: '≤ 300 ms',
  },
  suite: {
    label: 'one pass over a 9-page scenario suite',
    playwrightMcp: '18.5 s, 602k chars',
    chromeDevtoolsMcp: '12.7 s, 320k chars',
    rawCdpFloor: '4.7 s',
    target: 'below both; aim ≤ 6.35 s',
  },
} satisfies Record<string, Anchor>;

export type AnchorId = keyof typeof ANCHORS;

function isAnchorId(id: string): id is AnchorId {
  return Object.hasOwn(ANCHORS, id);
}

export function anchorFor(id: string): Anchor | undefined {
  return isAnchorId(id) ? ANCHORS[id] : undefined;
}

/** Targets from the issue that are not a row of the table above. */
export const OTHER_TARGETS = {
  defaultSnapshotMaxChars: 40_000,
  bridgeOverheadMs: 3,
  daemonRssMiBWith8Sessions: 60,
};
