/** Messages between the content script and the service worker; they never leave the extension. */
export type ContentMessage = { kind: 'overlay_query' };
export type OverlayState = { kind: 'overlay'; client: string | null };

/** Name of the runtime port the relay page opens to the service worker. */
export const RELAY_PORT_NAME = 'relay';
