import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping';

export type CdpCommand = keyof ProtocolMapping.Commands;
export type CdpParams<M extends CdpCommand> = ProtocolMapping.Commands[M]['paramsType'][0];
export type CdpReturn<M extends CdpCommand> = ProtocolMapping.Commands[M]['returnType'];
export type CdpEvent = keyof ProtocolMapping.Events;
export type CdpEventParams<E extends CdpEvent> = ProtocolMapping.Events[E][0];

/** Typed CDP access to one tab (optionally one of its child sessions, e.g. an OOPIF). */
export interface CdpClient {
  send<M extends CdpCommand>(
    method: M,
    params?: CdpParams<M>,
    sessionId?: string,
  ): Promise<CdpReturn<M>>;
  /** Subscribes to an event of this tab; returns the unsubscribe function. */
  on<E extends CdpEvent>(
    event: E,
    listener: (params: CdpEventParams<E>, sessionId?: string) => void,
  ): () => void;
}
