/**
 * Storage state in Playwright's format: the cookies of the session's sites and the localStorage
 * of its tabs' origins, read out for a file, or written back from one.
 */
import { BridgeError, ErrorCode, type StorageState } from '@browser-agent/protocol';
import type { HandlerContext } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { delay } from '../common/timing';
import {
  deleteCookie,
  policyAllows,
  scopedCookies,
  sitesOf,
  type Cookie,
  type Site,
} from './cookieJar';
import { webStorage } from './webStorage';

/** The http(s) sites of the session's tabs, the current tab's first. */
export async function sessionSites(ctx: HandlerContext): Promise<Site[]> {
  const tabs = await ctx.listTabs();
  const urls = [...tabs.filter((t) => t.current), ...tabs.filter((t) => !t.current)].map(
    (t) => t.url,
  );
  return sitesOf(urls);
}

function stateCookie(c: Cookie): StorageState['cookies'][number] {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.session ? -1 : c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite ?? 'Lax',
  };
}

/** Cookies of the session's sites and localStorage of each tab's origin (first tab per origin). */
export async function readStorageState(ctx: HandlerContext): Promise<StorageState> {
  const tab = await ctx.currentTab();
  const sites = await sessionSites(ctx);
  const cookies = (await scopedCookies(tab.cdp, sites, ctx.policy)).map(stateCookie);
  const origins: StorageState['origins'] = [];
  for (const summary of await ctx.listTabs()) {
    if (!/^https?:/.test(summary.url)) continue;
    const handle = await ctx.tabById(summary.tabId);
    const answer = await webStorage(handle.cdp, 'local', { op: 'list' }).catch(() => undefined);
    if (answer === undefined || origins.some((o) => o.origin === answer.origin)) continue;
    if (!policyAllows(ctx.policy, new URL(answer.origin).hostname)) continue;
    const entries = answer.entries ?? [];
    if (entries.length === 0) continue;
    origins.push({
      origin: answer.origin,
      localStorage: entries.map(([name, value]) => ({ name, value })),
    });
  }
  return { cookies, origins };
}

export interface RestoreCounts {
  cleared: number;
  cookies: number;
  origins: number;
  skipped: string[];
}

const EMPTY_PAGE = btoa('<!DOCTYPE html><title></title>');

/**
 * Opens the origin in a background tab of the session, its document answered with an empty page
 * from here (the site is not asked), sets the items, and closes the tab.
 */
async function restoreInTemporaryTab(
  ctx: HandlerContext,
  origin: string,
  items: [string, string][],
): Promise<void> {
  const tab: TabHandle = await ctx.newTab(undefined, { background: true });
  try {
    const { cdp } = tab;
    const off = cdp.on('Fetch.requestPaused', (event) => {
      if (event.responseStatusCode !== undefined || event.responseErrorReason !== undefined) return;
      void cdp
        .send('Fetch.fulfillRequest', {
          requestId: event.requestId,
          responseCode: 200,
          responseHeaders: [{ name: 'Content-Type', value: 'text/html' }],
          body: EMPTY_PAGE,
        })
        .catch(() => undefined);
    });
    try {
      // The origin guard would let the request through to the site; this tab answers it.
      tab.state.servedOrigin = origin;
      await cdp.send('Fetch.enable', {
        patterns: [
          { urlPattern: `${origin}/*`, resourceType: 'Document', requestStage: 'Request' },
        ],
      });
      await cdp.send('Page.navigate', { url: `${origin}/` });
      for (let i = 0; i < 50; i++) {
        const answer = await webStorage(cdp, 'local', { op: 'list' }).catch(() => undefined);
        if (answer?.origin === origin) {
          await webStorage(cdp, 'local', { op: 'replace', items });
          return;
        }
        await delay(100, ctx.signal);
      }
      throw new BridgeError(
        ErrorCode.NAVIGATION_TIMEOUT,
        `Could not open ${origin} to restore its localStorage.`,
        'Navigate to the site and call browser_set_storage_state again.',
      );
    } finally {
      off();
      tab.state.servedOrigin = undefined;
    }
  } finally {
    const index = (await ctx.listTabs()).find((t) => t.tabId === tab.tabId)?.index;
    if (index !== undefined) await ctx.closeTab(index).catch(() => undefined);
  }
}

/**
 * Clears the cookies of the session's sites, then sets the state's cookies and each origin's
 * localStorage (in the tab that shows that origin, or in a short-lived background tab).
 * Cookies and origins the origin policy blocks are skipped and named.
 */
export async function writeStorageState(
  ctx: HandlerContext,
  state: StorageState,
): Promise<RestoreCounts> {
  const tab = await ctx.ensureTab();
  const { cdp } = tab;
  const sites = await sessionSites(ctx);
  const old = await scopedCookies(cdp, sites, ctx.policy);
  for (const c of old) await deleteCookie(cdp, c);
  const skipped: string[] = [];
  let cookies = 0;
  for (const c of state.cookies) {
    if (!policyAllows(ctx.policy, c.domain)) {
      skipped.push(`cookie ${c.name} of ${c.domain}`);
      continue;
    }
    const path = c.path ?? '/';
    const hostOnly = !c.domain.startsWith('.');
    const scheme = c.secure === true ? 'https' : 'http';
    const { success } = await cdp.send('Network.setCookie', {
      name: c.name,
      value: c.value,
      path,
      ...(hostOnly ? { url: `${scheme}://${c.domain}${path}` } : { domain: c.domain }),
      ...(c.expires !== undefined && c.expires >= 0 ? { expires: c.expires } : {}),
      ...(c.httpOnly === undefined ? {} : { httpOnly: c.httpOnly }),
      ...(c.secure === undefined ? {} : { secure: c.secure }),
      ...(c.sameSite === undefined ? {} : { sameSite: c.sameSite }),
    });
    if (success) cookies++;
    else skipped.push(`cookie ${c.name} of ${c.domain} (the browser refused it)`);
  }
  let origins = 0;
  for (const entry of state.origins) {
    let origin: string;
    try {
      const url = new URL(entry.origin);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      origin = url.origin;
    } catch {
      skipped.push(`localStorage of ${entry.origin} (not an http(s) origin)`);
      continue;
    }
    if (!policyAllows(ctx.policy, new URL(origin).hostname)) {
      skipped.push(`localStorage of ${origin}`);
      continue;
    }
    const items = entry.localStorage.map((i): [string, string] => [i.name, i.value]);
    const open = (await ctx.listTabs()).find((t) => {
      try {
        return new URL(t.url).origin === origin;
      } catch {
        return false;
      }
    });
    if (open !== undefined) {
      const handle = await ctx.tabById(open.tabId);
      await webStorage(handle.cdp, 'local', { op: 'replace', items });
    } else {
      await restoreInTemporaryTab(ctx, origin, items);
    }
    origins++;
  }
  return { cleared: old.length, cookies, origins, skipped };
}
