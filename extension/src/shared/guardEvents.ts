/**
 * DOM events between the main-world submit hook (content/submitHook.ts) and the isolated-world
 * submit guard (content/submitGuard.ts). The two worlds share the DOM but no JavaScript objects,
 * and a synchronous event on the form is the one channel that both see at once.
 */

/** Composed: its path through shadow roots lets the guard find and watch every root on it. */
export const GUARD_DISCOVER_EVENT = 'browser-agent-guard-discover';

/** Cancelable, not composed: the guard cancels it to hold a `form.submit()` call. */
export const GUARD_SUBMIT_EVENT = 'browser-agent-guard-submit';

/**
 * The page can dispatch either event above itself. So that a forged GUARD_SUBMIT_EVENT raises
 * no question, the hook brackets each real one with events on a private element, which the
 * guard made and handed to the hook before any page script ran; detached, it is in no tree a
 * page can listen on. The handshake works whichever of the two scripts runs first:
 * - the hook listens on `document` for GUARD_CHANNEL_EVENT and announces itself with
 *   GUARD_HELLO_EVENT;
 * - the guard, on loading and on a hello, dispatches GUARD_CHANNEL_EVENT from its element
 *   (attached for that instant); the hook keeps the first element it gets and answers
 *   GUARD_CHANNEL_TAKEN on it, after which the guard hands it to nobody else.
 */
export const GUARD_HELLO_EVENT = 'browser-agent-guard-hello';
export const GUARD_CHANNEL_EVENT = 'browser-agent-guard-channel';
export const GUARD_CHANNEL_TAKEN = 'browser-agent-guard-channel-taken';
/** On the private element, around the hook's own GUARD_SUBMIT_EVENT. */
export const GUARD_REAL_START = 'browser-agent-guard-real-start';
export const GUARD_REAL_END = 'browser-agent-guard-real-end';
