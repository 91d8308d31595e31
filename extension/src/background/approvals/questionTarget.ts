/**
 * What a permission question is about, in the page's own words (issue #28): the element the
 * call would act on as the page names it (its role and accessible name, not the agent's
 * description of it), the text it would type with secrets masked, the URL it would open, and
 * where the element is, so the tab's overlay outlines it while the question waits.
 *
 * Typed text is masked when it goes into a secret field (password, one-time code, card) or is
 * the value of one of the server's `--secrets` (the server sends their SHA-256 digests in the
 * session settings, never the values): the question shows in the panel, on the tab (where a
 * screenshot or the recording could catch it) and in the MCP client.
 */
import type { ElementTarget, ToolContract } from '@browser-agent/protocol';
import type { HighlightRect } from '../../shared/messages';
import { SECRET_FIELD_FUNCTION } from '../../shared/secretKind';
import type { TabHandle } from '../tabStates';
import { namesElement, resolveTarget } from '../elements/target';
import { releaseElement, type ResolvedElement } from '../elements/resolveRef';
import { elementCdp } from '../elements/elementCdp';
import { oneLine } from '../common/text';
import { within } from '../common/timing';

/** What a question says about the call, and where its element is on the tab (top frame only). */
export interface QuestionTarget {
  /** "click the button “Send” on shop.test", "type “hello” into the textbox “Message” on …". */
  phrase: string;
  highlight?: HighlightRect;
}

const MAX_TEXT_CHARS = 80;
/** How long the question waits to read its element before it is asked without it. */
const LOOK_WAIT_MS = 1_000;
const MAX_URL_CHARS = 200;

/** The element's box in the top frame's viewport and whether it holds a secret, one round trip. */
const LOOK_FUNCTION = `function () {
  const secret = (${SECRET_FIELD_FUNCTION})(this);
  const view = this.ownerDocument.defaultView;
  if (!view || view !== view.top) return { secret };
  if (typeof this.scrollIntoViewIfNeeded === 'function') this.scrollIntoViewIfNeeded(true);
  const r = this.getBoundingClientRect();
  return { secret, rect: { x: r.x, y: r.y, width: r.width, height: r.height } };
}`;

interface Look {
  secret: boolean;
  rect?: HighlightRect;
}

export async function describeTarget(
  contract: ToolContract,
  args: unknown,
  tab: TabHandle | undefined,
  site: string | undefined,
  secretDigests: readonly string[] = [],
): Promise<QuestionTarget> {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const verb = contract.askVerb ?? contract.title.toLowerCase();
  const host = site === undefined ? undefined : new URL(site).host;
  if (typeof a['url'] === 'string')
    return { phrase: `${verb} ${oneLine(a['url'], MAX_URL_CHARS)}` };
  const target = namesElement(a) ? a : undefined;
  // A busy page must not hold the question back: past LOOK_WAIT_MS it is asked without them.
  const seen =
    tab === undefined || target === undefined
      ? undefined
      : await within(lookUp(tab, target), LOOK_WAIT_MS);
  const element = seen?.element;
  const look = seen?.look;
  const on = host === undefined ? '' : ` on ${host}`;
  const named = element === undefined ? agentsWords(a) : pageWords(element);
  // Text for an element that could not be read may be going into a secret field: not shown.
  const unread = target !== undefined && look === undefined;
  const hidden = look?.secret === true ? 'secret' : unread ? 'unread' : undefined;
  const text = await typedText(a, hidden, secretDigests);
  const parts =
    text === undefined
      ? `${verb}${named === '' ? '' : ` ${named}`}`
      : `${verb} ${text}${named === '' ? '' : ` into ${named}`}`;
  return {
    phrase: `${parts}${on}`,
    ...(look?.rect === undefined ? {} : { highlight: look.rect }),
  };
}

/** The element as it is now and how it looks; never throws (the call itself will). */
async function lookUp(
  tab: TabHandle,
  target: ElementTarget,
): Promise<{ element: ResolvedElement | undefined; look: Look | undefined }> {
  const element = await resolveTarget(tab, target).catch(() => undefined);
  return { element, look: element === undefined ? undefined : await lookAt(tab, element) };
}

async function lookAt(tab: TabHandle, element: ResolvedElement): Promise<Look | undefined> {
  try {
    const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
      objectId: element.objectId,
      functionDeclaration: LOOK_FUNCTION,
      returnByValue: true,
    });
    const value = result.value as Look | undefined;
    if (value === undefined) return undefined;
    // Only an element of the tab's own document has viewport coordinates the overlay can use.
    return element.entry.sessionId === undefined ? value : { secret: value.secret };
  } catch {
    return undefined;
  } finally {
    releaseElement(tab, element);
  }
}

/** `the button “Send”`: the page's role and name of the element, checked live. */
function pageWords(element: ResolvedElement): string {
  const { role, name } = element.entry;
  return name === '' ? `a ${role}` : `the ${role} ${said(name)}`;
}

/** Without a live element: the point a coordinate call acts at, else nothing. */
function agentsWords(a: Record<string, unknown>): string {
  if (typeof a['x'] === 'number' && typeof a['y'] === 'number')
    return `the point (${Math.round(a['x'])}, ${Math.round(a['y'])})`;
  return '';
}

/** The text a call types, keys it presses or options it chooses, quoted; secrets masked. */
async function typedText(
  a: Record<string, unknown>,
  hidden: 'secret' | 'unread' | undefined,
  digests: readonly string[],
): Promise<string | undefined> {
  const text = a['text'];
  if (typeof text === 'string') {
    if (hidden === 'secret') return `a secret (${text.length} characters, hidden)`;
    if (hidden === 'unread')
      return `${text.length} characters (hidden: the field could not be read to tell)`;
    if (await isSecretValue(text, digests)) return 'one of your secrets (hidden)';
    return said(text);
  }
  if (typeof a['key'] === 'string') return said(a['key']);
  const values = a['values'];
  if (Array.isArray(values) && values.every((v) => typeof v === 'string'))
    return values.map(said).join(', ');
  return undefined;
}

/** Page and agent text in a person's quotes, on one line, cut short. */
function said(text: string): string {
  return `“${oneLine(text, MAX_TEXT_CHARS)}”`;
}

async function isSecretValue(text: string, digests: readonly string[]): Promise<boolean> {
  if (digests.length === 0 || text === '') return false;
  return digests.includes(await sha256Hex(text));
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
