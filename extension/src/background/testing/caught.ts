import { BridgeError } from '@browser-agent/protocol';

/** The BridgeError a promise rejects with; fails when it resolves or throws anything else. */
export async function caught(promise: Promise<unknown>): Promise<BridgeError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof BridgeError) return err;
    throw new Error(`expected a BridgeError, got ${String(err)}`, { cause: err });
  }
  throw new Error('expected a rejection, but the promise resolved');
}
