/** Adapts a Playwright CDPSession to the extension's CdpClient, so handlers run on a real page. */
import type { CDPSession } from 'playwright-core';
import type { CdpClient, CdpCommand, CdpEvent, CdpEventParams, CdpParams, CdpReturn } from '../cdp';

// Playwright types its session against its own copy of the protocol; both describe the same
// wire, so the adapter talks to it untyped and the CdpClient signature restores the types.
interface UntypedSession {
  send(method: string, params?: object): Promise<unknown>;
  on(event: string, listener: (params: unknown) => void): unknown;
  off(event: string, listener: (params: unknown) => void): unknown;
}

export function cdpFromSession(session: CDPSession): CdpClient {
  const raw = session as unknown as UntypedSession;
  return {
    async send<M extends CdpCommand>(method: M, params?: CdpParams<M>): Promise<CdpReturn<M>> {
      return (await raw.send(method, params ?? {})) as CdpReturn<M>;
    },
    on<E extends CdpEvent>(event: E, listener: (params: CdpEventParams<E>) => void): () => void {
      const wrapped = (params: unknown): void => listener(params as CdpEventParams<E>);
      raw.on(event, wrapped);
      return () => {
        raw.off(event, wrapped);
      };
    },
  };
}
