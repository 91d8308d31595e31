/**
 * The worker's side of an isolated launch's hand-off (LaunchHandoff in shared/messages.ts). In
 * an incognito context every storage area is this worker's own memory (shared/storageAreas.ts),
 * so the pairing its relay page adopted from the URL reaches it in the message itself.
 *
 * A hand-off carries a secret the worker will authenticate with, so it is taken only when all of
 * these hold: this worker keeps its storage in memory (a regular worker reads the pairing its
 * page wrote to chrome.storage, and never stores a secret sent to it); the sender is the relay
 * page of this extension in launch mode (`?launch=1`), in a tab's top frame, and that tab is an
 * incognito one (in split mode a runtime port only reaches the worker of its own context); and
 * the message has exactly the hand-off's shape. Anything else is dropped without a word.
 */
import { RELAY_PAGE_PATH, z } from '@browser-agent/protocol';
import type { LaunchHandoff, Settings } from '../../shared/messages';
import { adoptPairing, forgetPairing } from '../../shared/pairings';
import { inMemoryContext } from '../../shared/storageAreas';

export const handoffSchema = z.strictObject({
  kind: z.literal('launch_handoff'),
  pairing: z
    .strictObject({
      // A base64 HMAC key, as the relay page's `#pair=` fragment carries it (shared/pairings.ts).
      secret: z.string().regex(/^[A-Za-z0-9+/=]{1,512}$/),
      label: z.string().min(1).max(100),
    })
    .nullable(),
  bridgePort: z.number().int().min(1).max(65_535),
  noBrowserPolicy: z.boolean(),
}) satisfies z.ZodType<LaunchHandoff>;

/** A pairing id as pairingIdOf spells it. */
const PAIRING_ID = /^[\w-]{1,128}$/;

/** Where the worker runs; chromeHandoffContext() in the extension, a fake in tests. */
export interface HandoffContext {
  inMemory: boolean;
  extensionId: string;
  urlOf(path: string): string;
}

export function chromeHandoffContext(): HandoffContext {
  return {
    inMemory: inMemoryContext(),
    extensionId: chrome.runtime.id,
    urlOf: (path) => chrome.runtime.getURL(path),
  };
}

/** The hand-off, if this worker may take it from this sender (see the header); else undefined. */
export function acceptedHandoff(
  message: unknown,
  sender: chrome.runtime.MessageSender | undefined,
  where: HandoffContext,
): LaunchHandoff | undefined {
  if (!where.inMemory || !fromRelayPage(sender, where)) return undefined;
  const parsed = handoffSchema.safeParse(message);
  return parsed.success ? parsed.data : undefined;
}

function fromRelayPage(
  sender: chrome.runtime.MessageSender | undefined,
  where: HandoffContext,
): boolean {
  return sender?.tab?.incognito === true && fromLaunchRelayPage(sender, where);
}

/**
 * The sender is this extension's relay page of a launched browser (`?launch=1`), in a tab's top
 * frame: what the daemon opened over the browser's debugging pipe, or a person typed.
 */
export function fromLaunchRelayPage(
  sender: chrome.runtime.MessageSender | undefined,
  where: HandoffContext,
): boolean {
  if (!sender || sender.id !== where.extensionId || sender.url === undefined) return false;
  if (sender.tab === undefined || sender.frameId !== 0) return false;
  const page = new URL(where.urlOf(RELAY_PAGE_PATH));
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return false;
  }
  // Spelled out, not URL.origin: a chrome-extension: URL's origin is "null" outside Chrome.
  const origin = (u: URL): string => `${u.protocol}//${u.host}`;
  if (sender.origin !== undefined && sender.origin !== origin(page)) return false;
  return (
    origin(url) === origin(page) &&
    url.pathname === page.pathname &&
    url.searchParams.get('launch') === '1'
  );
}

export interface HandoffDeps {
  where: HandoffContext;
  noPolicyFiles(): void;
  /** Saves the patch and applies it, as a panel's `settings` message does. */
  applySettings(patch: Partial<Settings>): Promise<void>;
}

/**
 * Takes a hand-off: the policy hint first (before any call can wait for it), then the pairing
 * (before the link's hello looks for it), then the settings that start the worker-held link.
 * False when it was refused.
 */
export async function takeHandoff(
  message: unknown,
  sender: chrome.runtime.MessageSender | undefined,
  deps: HandoffDeps,
): Promise<boolean> {
  const handoff = acceptedHandoff(message, sender, deps.where);
  if (!handoff) return false;
  await applyHandoff(handoff, deps);
  return true;
}

/** What a hand-off does, once its sender was judged (above, or worker/pipeHandoff.ts). */
export async function applyHandoff(
  handoff: LaunchHandoff,
  deps: Omit<HandoffDeps, 'where'>,
): Promise<void> {
  if (handoff.noBrowserPolicy) deps.noPolicyFiles();
  if (handoff.pairing) await adoptPairing(handoff.pairing.secret, handoff.pairing.label);
  await deps.applySettings({ bridgePort: handoff.bridgePort, keepWorkingWhenPanelClosed: true });
}

/**
 * The user forgot a pairing on the relay page. Only a worker whose pairings are its own memory
 * needs telling: elsewhere the page's forgetPairing already reached chrome.storage. Forgetting
 * it here also sends the daemon `unpair` over the worker-held link (relayClient.ts).
 */
export async function forgetHandedPairing(id: unknown, where: HandoffContext): Promise<boolean> {
  if (!where.inMemory || typeof id !== 'string' || !PAIRING_ID.test(id)) return false;
  await forgetPairing(id);
  return true;
}
