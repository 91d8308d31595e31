/**
 * One response per call. The handler's result and every cross-cutting step (the open dialog,
 * the approval note, what the origin policy blocked) add sections here, or set the call's
 * error; the frame is rendered once, by the dispatcher, when all of them are done. Nothing edits
 * a rendered frame.
 */
import {
  mergeServerData,
  toWireError,
  type ErrorCode,
  type ResponsePayload,
  type ServerData,
  type ToolContent,
  type ToolResult,
  type WireError,
} from '@browser-agent/protocol';

export class CallResponse {
  readonly #sections: ToolContent[] = [];
  #error: WireError | undefined;
  /** The handler's structured result (MCP structuredContent), when its contract declares one. */
  #structured: Record<string, unknown> | undefined;
  /** What the MCP server takes off the result (files, page HTML, console events), never text. */
  #serverData: ServerData | undefined;

  /** A result's parts, after what is there (the handler's, or a batch step's). */
  add(result: ToolResult): void {
    this.#sections.push(...result.content);
    if (result.structured !== undefined) this.#structured = result.structured;
    this.addServerData(result.serverData);
  }

  addServerData(data: ServerData | undefined): void {
    this.#serverData = mergeServerData(this.#serverData, data);
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
    return this.#withStructured({ content: [...this.#sections] });
  }

  #withStructured(result: ToolResult): ToolResult {
    return {
      ...result,
      ...(this.#structured === undefined ? {} : { structured: this.#structured }),
      ...(this.#serverData === undefined ? {} : { serverData: this.#serverData }),
    };
  }

  payload(): ResponsePayload {
    return this.#error === undefined
      ? { success: true, data: this.#withStructured({ content: [...this.#sections] }) }
      : { success: false, error: this.#error };
  }
}
