/**
 * extension → daemon: a session's tabs, sent as an `event` frame named SESSION_TABS_EVENT when
 * they change. The daemon keeps the latest list for `<state dir>/status.json` (what `doctor`
 * shows) and does not pass it on to the server. URLs and titles are page-controlled: they are
 * kept as data, cut to origin + path (no query or fragment, which may hold secrets) and capped.
 */
import { z } from './zod.js';

// WHATWG URL exists in Node and in every extension context; protocol has no DOM lib to declare it.
declare const URL: new (input: string) => {
  readonly protocol: string;
  readonly origin: string;
  readonly pathname: string;
};

export const SESSION_TABS_EVENT = 'session_tabs';

/** How many characters of a tab's URL or title are kept. */
export const SESSION_TAB_TEXT_MAX = 200;
/** How many tabs of one session are reported. */
export const SESSION_TABS_MAX = 50;

export interface SessionTab {
  tabId: number;
  url: string;
  title: string;
}

export const sessionTabsSchema = z.object({
  tabs: z
    .array(z.object({ tabId: z.number().int(), url: z.string(), title: z.string() }))
    .max(SESSION_TABS_MAX),
});

/** A URL as reported: origin + path for http(s) and file pages, the scheme alone otherwise. */
export function reportedTabUrl(url: string): string {
  let shown: string;
  try {
    const parsed = new URL(url);
    shown = /^(https?|file):$/.test(parsed.protocol)
      ? `${parsed.origin === 'null' ? `${parsed.protocol}//` : parsed.origin}${parsed.pathname}`
      : `${parsed.protocol}`;
  } catch {
    shown = '';
  }
  return shown.slice(0, SESSION_TAB_TEXT_MAX);
}

/** A tab as reported (either side may apply it; applying it twice changes nothing). */
export function reportedTab(tab: SessionTab): SessionTab {
  return {
    tabId: tab.tabId,
    url: reportedTabUrl(tab.url),
    title: tab.title.slice(0, SESSION_TAB_TEXT_MAX),
  };
}
