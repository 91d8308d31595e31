/**
 * Which documents a state-changing call touches, for the permission gate's site lists (issue
 * #25): the sensitive sites, the admin lists and site grants are judged on every one of them,
 * not on the tab's top page alone.
 *
 * - A URL argument (browser_navigate, a new tab): that URL, and nothing else.
 * - An element (a ref, a locator, a selector; the drag's two ends, each field of a form): the
 *   frame it lives in, beside the tab's page. A click inside a bank's iframe on an ordinary page
 *   acts on the bank, with the user's cookies there.
 * - A point (the coordinate tools' `x`/`y`, a drag's two ends): the frame under it.
 * - Neither (the contract's `inputAt`): keys, the frame that has the focus; mouse buttons and
 *   the wheel, the frame under the mouse.
 * - A storage state: every cookie domain and origin it writes, and the session's tabs, whose
 *   cookies it clears first. A cookie with a domain: that domain.
 */
import type { ToolContract } from '@browser-agent/protocol';
import type { HandlerContext } from '../handlerContext';
import { focusedFrameUrl, pointFrameUrl, targetFrameUrl } from '../elements/targetFrame';
import { namesElement } from '../elements/target';

export interface ActionUrls {
  /** The URL the call acts on first: what a grant and the question name. */
  primary: string | undefined;
  /** Every URL to judge (the primary one included). */
  all: string[];
}

type Args = Record<string, unknown>;

export async function actionUrls(
  rawArgs: unknown,
  ctx: HandlerContext,
  /** The tab's URL, on its way from Chrome while the frames are looked up. */
  tabUrlAnswer: Promise<string | undefined>,
  inputAt?: ToolContract['inputAt'],
): Promise<ActionUrls> {
  const args = (typeof rawArgs === 'object' && rawArgs !== null ? rawArgs : {}) as Args;
  const url = args['url'];
  if (typeof url === 'string' && /^https?:/i.test(url)) return { primary: url, all: [url] };
  // The frames are looked up while the tab's URL is still on its way.
  const framesAnswer = elementFrames(args, ctx, inputAt, tabUrlAnswer);
  framesAnswer.catch(() => undefined);
  const written = [...storageUrls(args['state']), ...cookieUrls(args['domain'])];
  if (written.length > 0 || args['state'] !== undefined) {
    const tabs = (await ctx.listTabs().catch(() => [])).map((t) => t.url);
    // Restoring a state clears the cookies of every site the session's tabs are on. A cookie
    // reaches every port of its host, so the tabs it would reach are judged too (an entry such
    // as `http://localhost:8080` names a port that the cookie's own domain does not).
    const hosts = written.map(hostOf);
    written.push(
      ...tabs.filter(
        (url) =>
          args['state'] !== undefined ||
          hosts.some((h) => h !== '' && (hostOf(url) === h || hostOf(url).endsWith(`.${h}`))),
      ),
    );
  }
  const [frames, tabUrl] = await Promise.all([framesAnswer, tabUrlAnswer]);
  const primary = frames[0] ?? tabUrl;
  const all = [...frames, ...written, ...(tabUrl === undefined ? [] : [tabUrl])];
  return { primary, all: [...new Set(all)].filter((u) => /^https?:/i.test(u)) };
}

async function elementFrames(
  args: Args,
  ctx: HandlerContext,
  inputAt: ToolContract['inputAt'],
  tabUrl: Promise<string | undefined>,
): Promise<string[]> {
  const fields = Array.isArray(args['fields']) ? (args['fields'] as unknown[]) : [];
  const targets = [args, args['from'], args['to'], ...fields].filter(namesElement);
  const points = [
    [args['x'], args['y']],
    [args['startX'], args['startY']],
    [args['endX'], args['endY']],
  ].filter((p): p is [number, number] => typeof p[0] === 'number' && typeof p[1] === 'number');
  const untargeted = targets.length === 0 && points.length === 0;
  if (untargeted && inputAt === undefined) return [];
  const tab = await ctx.currentTab().catch(() => undefined);
  if (tab === undefined) return [];
  if (untargeted) {
    // Where the mouse is: where the last mouse call left it (the top-left corner before any).
    const at = tab.state.pointer?.at ?? { x: 0, y: 0 };
    const url =
      inputAt === 'focus' ? await focusedFrameUrl(tab) : await pointFrameUrl(tab, at.x, at.y);
    return url === undefined ? [] : [url];
  }
  const urls = await Promise.all([
    ...targets.map((t) => targetFrameUrl(tab, t, tabUrl)),
    ...points.map(([x, y]) => pointFrameUrl(tab, x, y)),
  ]);
  return urls.filter((u): u is string => u !== undefined);
}

/** A cookie domain as the URLs it is sent to (either scheme: `secure` is the cookie's choice). */
function cookieUrls(domain: unknown): string[] {
  if (typeof domain !== 'string' || domain.trim() === '') return [];
  const host = domain.trim().replace(/^\./, '');
  return [`https://${host}/`, `http://${host}/`];
}

function storageUrls(state: unknown): string[] {
  if (typeof state !== 'object' || state === null) return [];
  const { cookies, origins } = state as { cookies?: unknown; origins?: unknown };
  const out: string[] = [];
  for (const c of Array.isArray(cookies) ? cookies : [])
    out.push(...cookieUrls((c as { domain?: unknown } | null)?.domain));
  for (const o of Array.isArray(origins) ? origins : []) {
    const origin = (o as { origin?: unknown } | null)?.origin;
    if (typeof origin === 'string') out.push(`${origin.replace(/\/+$/, '')}/`);
  }
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
