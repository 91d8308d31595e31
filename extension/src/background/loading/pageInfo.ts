import type { CdpClient } from '../cdp';
import type { TabHandle } from '../tabStates';
import { oneLine, quoted } from '../common/text';

const MAX_URL_CHARS = 2_000;

export interface PageInfo {
  url: string;
  title: string;
}

/** URL and title of the tab's current history entry; needs no script in the page. */
export async function pageInfo(cdp: CdpClient): Promise<PageInfo> {
  const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory');
  const entry = entries[currentIndex];
  return { url: entry?.url ?? '', title: entry?.title ?? '' };
}

/** The two lines every page-changing tool ends with. The title is page text, so it is quoted. */
export function formatPageInfo(info: PageInfo): string {
  return `- Page URL: ${oneLine(info.url, MAX_URL_CHARS)}\n- Page Title: ${quoted(info.title)}`;
}

/** A read that saw a new document commit half-way is taken again, at most this often. */
const SAME_DOCUMENT_RETRIES = 2;

/**
 * Runs read (which reads the page info and the page's content side by side) so that both come
 * from one document: when the main frame commits a new document during the read (a page that
 * arrives late), the read is taken again, so the old page's URL and title never sit above the
 * new page's outline.
 */
export async function fromOneDocument<T>(tab: TabHandle, read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let committed = false;
    const off = tab.cdp.on('Page.frameNavigated', (e) => {
      if (e.frame.parentId === undefined) committed = true;
    });
    try {
      const value = await read();
      if (!committed || attempt >= SAME_DOCUMENT_RETRIES) return value;
    } finally {
      off();
    }
  }
}
