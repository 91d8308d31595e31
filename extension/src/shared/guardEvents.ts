/**
 * DOM events between the main-world submit hook (content/submitHook.ts) and the isolated-world
 * submit guard (content/submitGuard.ts). The two worlds share the DOM but no JavaScript objects,
 * and a synchronous event on the form is the one channel that both see at once.
 */

/** Composed: its path through shadow roots lets the guard find and watch every root on it. */
export const GUARD_DISCOVER_EVENT = 'browser-agent-guard-discover';

/** Cancelable, not composed: the guard cancels it to hold a `form.submit()` call. */
export const GUARD_SUBMIT_EVENT = 'browser-agent-guard-submit';
