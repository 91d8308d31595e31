/**
 * Web Storage of a tab's top document: one page function for every verb, run with
 * Runtime.evaluate in the page's own world (the storage is the page's; nothing of ours is left
 * behind in it).
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';

export type WebStorageArea = 'local' | 'session';

export type WebStorageOp =
  | { op: 'list' }
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: string }
  | { op: 'delete'; key: string }
  | { op: 'clear' }
  /** Clears, then sets every item: restoring a saved state. */
  | { op: 'replace'; items: readonly (readonly [string, string])[] };

export interface WebStorageAnswer {
  origin: string;
  entries?: [string, string][];
  value?: string | null;
  count?: number;
}

// Runs in the page. Returns the origin with the answer so callers can check whose storage it was.
const WEB_STORAGE_FUNCTION = `function (area, req) {
  const store = area === 'local' ? localStorage : sessionStorage;
  const origin = location.origin;
  switch (req.op) {
    case 'list': {
      const entries = [];
      for (let i = 0; i < store.length; i++) { const k = store.key(i); if (k !== null) entries.push([k, store.getItem(k) ?? '']); }
      return { origin, entries };
    }
    case 'get': return { origin, value: store.getItem(req.key) };
    case 'set': store.setItem(req.key, req.value); return { origin };
    case 'delete': { const had = store.getItem(req.key) !== null; store.removeItem(req.key); return { origin, count: had ? 1 : 0 }; }
    case 'clear': { const n = store.length; store.clear(); return { origin, count: n }; }
    case 'replace': { store.clear(); for (const [k, v] of req.items) store.setItem(k, v); return { origin, count: req.items.length }; }
  }
  return { origin };
}`;

export async function webStorage(
  cdp: CdpClient,
  area: WebStorageArea,
  request: WebStorageOp,
): Promise<WebStorageAnswer> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: `(${WEB_STORAGE_FUNCTION})(${JSON.stringify(area)}, ${JSON.stringify(request)})`,
    returnByValue: true,
  });
  if (exceptionDetails !== undefined) {
    // An opaque origin (about:blank, a sandboxed page, data:) has no storage of its own.
    const why = exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text;
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `This page has no ${area}Storage the agent can use: ${why}`,
      'Navigate to an http(s) page of the site first (browser_navigate).',
    );
  }
  const value: unknown = result.value;
  if (typeof value !== 'object' || value === null)
    throw new BridgeError(ErrorCode.INTERNAL, `The page's ${area}Storage gave no answer.`);
  return value as WebStorageAnswer;
}
