/**
 * Names that a writer in one room and a reader in another must agree on. They live here, in the
 * lowest room, so neither side imports the other's room to learn them (a handler imported by
 * the live log, a recorder imported by the in-page model, the download gate imported by a
 * recorder each added floors to the import graph).
 */
import type { Protocol } from 'devtools-protocol';

/**
 * Before the origin in browser_file_upload's and browser_drop's results (tools/forms.ts writes
 * it); the panel's live log reads the origin after it (panel/activity.ts).
 */
export const UPLOAD_ORIGIN_PREFIX = 'for the page at ';

/**
 * The DOM events by which the page model asks the main-world click-listener hook which elements
 * have click listeners: `request` is fired on the document by the model (page/pageScript.ts),
 * `item` on each such element by the hook (recorders/clickListeners.ts).
 */
export const CLICK_LISTENER_EVENTS = {
  request: 'browser-agent-click-listeners',
  item: 'browser-agent-click-listener',
} as const;

/**
 * Added to the tab's Fetch patterns (recorders/responseBodies.ts merges it into every
 * Fetch.enable): every document response pauses (once) for the download gate
 * (approvals/downloadGate.ts), which answers it.
 */
export const DOCUMENT_RESPONSES: Protocol.Fetch.RequestPattern = {
  urlPattern: '*',
  resourceType: 'Document',
  requestStage: 'Response',
};
