/** CDP answers for a page's navigation plumbing (frames, history), shared by navigation tests. */
import type { Protocol } from 'devtools-protocol';
import type { CdpScript } from './fakeCdp';

export const MAIN_FRAME_ID = 'main-frame';

export function frame(url: string, parentId?: string): Protocol.Page.Frame {
  const base: Protocol.Page.Frame = {
    id: parentId === undefined ? MAIN_FRAME_ID : 'child-frame',
    loaderId: 'loader',
    url,
    domainAndRegistry: '',
    securityOrigin: new URL(url).origin,
    mimeType: 'text/html',
    secureContextType: 'Secure',
    crossOriginIsolatedContextType: 'NotIsolated',
    gatedAPIFeatures: [],
  };
  return parentId === undefined ? base : { ...base, parentId };
}

/** Page.enable, the frame tree and a history whose entries are `urls` (the last is current). */
export function navigationScript(urls: string[]): CdpScript {
  return {
    'Page.enable': () => undefined,
    'Page.getFrameTree': () => ({ frameTree: { frame: frame(urls.at(-1) ?? 'about:blank') } }),
    'Page.getNavigationHistory': () => ({
      currentIndex: urls.length - 1,
      entries: urls.map((url, i) => ({
        id: i + 1,
        url,
        userTypedURL: url,
        title: `Page ${i}`,
        transitionType: 'typed',
      })),
    }),
  };
}
