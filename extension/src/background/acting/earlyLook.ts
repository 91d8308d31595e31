/**
 * An action's report read in the round trip of its quiet check (#26). The page model in the main
 * frame's isolated world waits for an event that the quiet check (main world, settle.ts)
 * dispatches once the DOM went quiet, and answers the outline, title and URL at that moment: the
 * worker then needs no round trip after the check for "where the page is" and "what changed".
 * A type or a click was four round trips in the worker, now three.
 *
 * The look is used only when the settle waited for nothing more than the check (no navigation,
 * no request the action started, no dialog), and when its outline owns no frame (a framed page
 * lists its frames the usual way). Anything else (the event never came, the model was not there,
 * the page swallowed the event) falls back to reading the page as before, a moment later.
 *
 * Trust: the page could dispatch the event itself only if it knew the name (a random UUID per
 * action, held in the check's closure); even then it only chooses when the look is taken, which it
 * already could by holding the quiet check with its own mutations. What the look reads (outline,
 * `document.title`, `location.href`) is read in the isolated world, out of the page's reach.
 */
import type { PageInfo } from '../loading/pageInfo';
import type { TabHandle } from '../tabStates';
import { fromWire, type OutlineNode } from '../outline/nodes';
import type { QuietLook, WireNode } from '../page/wire';
import { awaitInstalledModel, worldKey } from '../page/world';
import { within } from '../common/timing';

/** The page model stops waiting this long after the action (the check itself ends by 1.5 s). */
const PAGE_CAP_MS = 3_000;
/**
 * The look leaves the page before the check's own answer (it runs inside the check's dispatch):
 * once the check answered, it is waited for this long at most.
 */
const GRACE_MS = 50;

export interface EarlyLook {
  /** The event the quiet check dispatches on the document when the DOM went quiet. */
  readonly event: string;
  /** The look, or undefined when there is none: read the page the usual way. */
  take(): Promise<QuietPage | undefined>;
}

export interface QuietPage {
  info: PageInfo;
  /** The main frame's outline; undefined when not asked for or when it owns a frame. */
  outline: OutlineNode[] | undefined;
}

/**
 * Sends the look before the quiet check (the page takes a session's commands in order, so its
 * listener is there before the check can end). Undefined when the main frame's page model is not
 * known to be installed: then there is nothing to send it to without a round trip.
 */
export function startEarlyLook(tab: TabHandle, withOutline: boolean): EarlyLook | undefined {
  const frameId = tab.state.mainFrameId;
  if (frameId === undefined) return undefined;
  const frame = { sessionId: undefined, frameId };
  const key = worldKey(frame);
  const contextId = tab.state.worlds.get(key);
  if (contextId === undefined || tab.state.modelWorlds.get(key) !== contextId) return undefined;
  const world = { ...frame, contextId };
  const event = `browser-agent-quiet-${crypto.randomUUID()}`;
  const answer = awaitInstalledModel(
    tab.cdp,
    world,
    `whenQuiet(${JSON.stringify(event)}, ${String(withOutline)}, ${PAGE_CAP_MS})`,
  );
  return {
    event,
    async take() {
      const look = await within(answer, GRACE_MS);
      if (!isQuietLook(look)) return undefined;
      const info = { url: look.url, title: look.title };
      if (look.outline === undefined) return { info, outline: undefined };
      const outline = fromWire(JSON.parse(look.outline) as WireNode[], world);
      return { info, outline: ownsFrame(outline) ? undefined : outline };
    },
  };
}

function isQuietLook(value: unknown): value is QuietLook {
  if (typeof value !== 'object' || value === null) return false;
  const look = value as Record<string, unknown>;
  return (
    typeof look['title'] === 'string' &&
    typeof look['url'] === 'string' &&
    (look['outline'] === undefined || typeof look['outline'] === 'string')
  );
}

/** An element of the outline owns a child frame: its outline hangs there (outline/frames.ts). */
function ownsFrame(nodes: readonly OutlineNode[]): boolean {
  return nodes.some((n) => n.kind === 'element' && (n.framed || ownsFrame(n.children)));
}
