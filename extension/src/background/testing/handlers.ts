/** The full handler registry for unit tests, on transaction services of its own. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { HandlerRegistry } from '../handlerContext';
import { createHandlers } from '../tools';
import { TransactionServices } from '../transactions';

const services = new TransactionServices();

export const handlers: HandlerRegistry = createHandlers({
  manager: services.manager,
  sideEffects: services.sideEffects,
  invoke: () => () => {
    throw new BridgeError(ErrorCode.INTERNAL, 'browser_batch has no dispatcher in unit tests.');
  },
});
