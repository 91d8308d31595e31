/** A scripted CdpClient for unit tests: answers the commands it is given, records every call. */
import type { CdpClient, CdpCommand, CdpEvent, CdpEventParams, CdpParams, CdpReturn } from '../cdp';

export type CdpScript = {
  [M in CdpCommand]?: (
    params: CdpParams<M>,
    sessionId?: string,
  ) => CdpReturn<M> | Promise<CdpReturn<M>>;
};

export interface FakeCdp extends CdpClient {
  readonly calls: { method: CdpCommand; params: unknown }[];
  emit<E extends CdpEvent>(event: E, params: CdpEventParams<E>): void;
}

type Listener = (params: unknown) => void;

export function fakeCdp(script: CdpScript): FakeCdp {
  const calls: { method: CdpCommand; params: unknown }[] = [];
  const listeners = new Map<string, Set<Listener>>();
  return {
    calls,
    async send<M extends CdpCommand>(
      method: M,
      params?: CdpParams<M>,
      sessionId?: string,
    ): Promise<CdpReturn<M>> {
      calls.push({ method, params });
      const answer = script[method];
      if (answer === undefined) throw new Error(`fakeCdp: no answer scripted for ${method}`);
      return answer(params, sessionId);
    },
    on<E extends CdpEvent>(event: E, listener: (params: CdpEventParams<E>) => void): () => void {
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      const wrapped: Listener = (params) => listener(params as CdpEventParams<E>);
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
    emit<E extends CdpEvent>(event: E, params: CdpEventParams<E>): void {
      for (const listener of listeners.get(event) ?? []) listener(params);
    },
  };
}
