import type { Protocol } from 'devtools-protocol';
import type { HandlerContext } from '../handlerContext';
import type { TabHandle } from '../tabStates';

export interface TabCheckpoint {
  tabId: number;
  url: string;
  cookies: Protocol.Network.Cookie[];
  localStorage: Array<[string, string]> | undefined;
  sessionStorage: Array<[string, string]> | undefined;
}

export interface Checkpoint {
  /** cp1, cp2, … within the session; browser_transaction_rollback can name it. */
  id: string;
  /** begin: browser_transaction_begin; batch: browser_batch; auto: taken every N calls or T s. */
  kind: 'begin' | 'batch' | 'auto';
  label: string | undefined;
  takenAt: number;
  tabs: TabCheckpoint[];
  /** Serialized size, reported in browser_session_info. */
  bytes: number;
}

const READ_STORAGE = `(() => {
  const dump = (s) => { try { return Object.entries(s); } catch { return null; } };
  return JSON.stringify({ local: dump(localStorage), session: dump(sessionStorage) });
})()`;

async function evaluate<T>(tab: TabHandle, expression: string): Promise<T | undefined> {
  const r = await tab.cdp.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
  });
  return r.exceptionDetails ? undefined : (r.result.value as T);
}

async function captureTab(tab: TabHandle, url: string): Promise<TabCheckpoint> {
  const { cookies } = await tab.cdp.send('Network.getCookies', { urls: [url] });
  // Runtime.evaluate waits while a JavaScript dialog is open; the storage is skipped instead.
  const raw =
    tab.state.dialog === undefined
      ? await evaluate<string>(tab, READ_STORAGE).catch(() => undefined)
      : undefined;
  const storage = raw
    ? (JSON.parse(raw) as {
        local: Array<[string, string]> | null;
        session: Array<[string, string]> | null;
      })
    : undefined;
  return {
    tabId: tab.tabId,
    url,
    cookies,
    localStorage: storage?.local ?? undefined,
    sessionStorage: storage?.session ?? undefined,
  };
}

/** The session's state: its tabs, their URLs, and the cookies and storage of their origins. */
export async function capture(
  ctx: HandlerContext,
  kind: Checkpoint['kind'],
  label: string | undefined,
): Promise<Omit<Checkpoint, 'id'>> {
  const tabs: TabCheckpoint[] = [];
  for (const summary of await ctx.listTabs()) {
    tabs.push(await captureTab(await ctx.tabById(summary.tabId), summary.url));
  }
  return { kind, label, takenAt: Date.now(), tabs, bytes: JSON.stringify(tabs).length };
}

async function waitForLoad(tab: TabHandle, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const state = await evaluate<string>(tab, 'document.readyState').catch(() => undefined);
    if (state === 'complete') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function writeStorage(
  area: 'localStorage' | 'sessionStorage',
  entries: Array<[string, string]>,
): string {
  return `(() => { const s = ${area}; s.clear(); for (const [k, v] of ${JSON.stringify(entries)}) s.setItem(k, v); return true; })()`;
}

/** Puts one tab back: cookies first (the reload sends them), then the URL, then storage. */
export async function restoreTab(
  tab: TabHandle,
  saved: TabCheckpoint,
  deadline: number,
): Promise<void> {
  const current = await tab.cdp.send('Network.getCookies', { urls: [saved.url] });
  for (const c of current.cookies) {
    await tab.cdp.send('Network.deleteCookies', { name: c.name, domain: c.domain, path: c.path });
  }
  if (saved.cookies.length > 0) {
    await tab.cdp.send('Network.setCookies', {
      cookies: saved.cookies.map((c) => ({
        name: c.name,
        value: c.value,
        // A leading dot marks a domain cookie; otherwise it is host-only, tied to the URL's host.
        ...(c.domain.startsWith('.') ? { domain: c.domain } : { url: saved.url }),
        path: c.path,
        secure: c.secure,
        httpOnly: c.httpOnly,
        sameSite: c.sameSite,
        ...(c.session ? {} : { expires: c.expires }),
      })),
    });
  }
  await tab.cdp.send('Page.navigate', { url: saved.url });
  await waitForLoad(tab, deadline);
  if (saved.localStorage) await evaluate(tab, writeStorage('localStorage', saved.localStorage));
  if (saved.sessionStorage)
    await evaluate(tab, writeStorage('sessionStorage', saved.sessionStorage));
}
