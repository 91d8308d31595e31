import type { CdpClient } from '../cdp';
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
