/**
 * One response per call. The handler's result and every cross-cutting step (the open dialog,
 * the approval note, what the origin policy blocked) add sections here, or set the call's
 * error; the frame is rendered once, by the dispatcher, when all of them are done. Nothing edits
 * a rendered frame.
 */
import {
  toWireError,
  type ErrorCode,
  type ResponsePayload,
  type ToolContent,
  type ToolResult,
  type WireError,
} from '@browser-agent/protocol';

export class CallResponse {
  readonly #sections: ToolContent[] = [];
  #error: WireError | undefined;

  /** A result's parts, after what is there (the handler's, or a batch step's). */
  add(result: ToolResult): void {
    this.#sections.push(...result.content);
  }

  addText(text: string): void {
    this.#sections.push({ type: 'text', text });
  }

  /** The call failed: the rendered response is this error, whatever sections were added. */
  fail(err: unknown): void {
    this.#error = toWireError(err);
  }

  get failed(): boolean {
    return this.#error !== undefined;
  }

  /** The error code when failed. */
  get errorCode(): ErrorCode | undefined {
    return this.#error?.code;
  }

  /** The sections as one tool result (a batch step's, for the batch's own response). */
  result(): ToolResult {
    return { content: [...this.#sections] };
  }

  payload(): ResponsePayload {
    return this.#error === undefined
      ? { success: true, data: { content: [...this.#sections] } }
      : { success: false, error: this.#error };
  }
}
