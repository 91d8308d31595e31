import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

type MessageId = string | number;

/**
 * Counts JSON-RPC requests out and responses in, by id, on one client's transport. The SDK
 * silently drops a second response to the same id, so only the wire can show "exactly one".
 */
export class ResponseLedger {
  readonly #sent = new Set<MessageId>();
  readonly #answers = new Map<MessageId, number>();
  #unknown = 0;

  noteOutgoing(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) this.#sent.add(message.id);
  }

  noteIncoming(message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const id = message.id;
    if (id === undefined || !this.#sent.has(id)) {
      this.#unknown += 1;
      return;
    }
    this.#answers.set(id, (this.#answers.get(id) ?? 0) + 1);
  }

  /** Requests with no response, with more than one, and responses to ids never sent. */
  check(): { requests: number; missing: number; duplicated: number; unknown: number } {
    let missing = 0;
    let duplicated = 0;
    for (const id of this.#sent) {
      const n = this.#answers.get(id) ?? 0;
      if (n === 0) missing += 1;
      else if (n > 1) duplicated += 1;
    }
    return { requests: this.#sent.size, missing, duplicated, unknown: this.#unknown };
  }
}
