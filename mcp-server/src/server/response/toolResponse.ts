/**
 * One response per call on the MCP server's side. The browser's result is its main part; the
 * layers on the way add notes (the resumed session's last calls, the project session's notes,
 * where a screenshot was saved), and a server step may turn the page-HTML part into Markdown.
 * It is rendered once, by mcpServer.ts, when the call is done.
 */
import type { ToolContent, ToolName, ToolResult } from '@browser-agent/protocol';

export class ToolResponse {
  #main: ToolContent[] = [];
  #structured: ToolResult['structured'];
  readonly #notes: string[] = [];

  /** The browser's result. */
  setResult(result: ToolResult): void {
    this.#main = [...result.content];
    this.#structured = result.structured;
  }

  /** The browser's result as it stands (server steps read it). */
  get parts(): readonly ToolContent[] {
    return this.#main;
  }

  /** Rewrites the text parts of the result before rendering (page HTML → Markdown). */
  mapText(convert: (text: string) => string): void {
    this.#main = this.#main.map((part) =>
      part.type === 'text' ? { type: 'text' as const, text: convert(part.text) } : part,
    );
  }

  /**
   * `--image-responses omit`: images leave the result (a client whose model cannot take them, or
   * one that reads the saved files instead); a note says so where one was.
   */
  omitImages(): void {
    const before = this.#main.length;
    this.#main = this.#main.filter((part) => part.type !== 'image');
    if (this.#main.length < before) {
      this.addNote('The image was left out of this response (--image-responses omit).');
    }
  }

  /** Removes the text parts that start with `marker` and gives their text after it. */
  takeMarked(marker: string): string[] {
    const taken: string[] = [];
    this.#main = this.#main.filter((part) => {
      if (part.type !== 'text' || !part.text.startsWith(marker)) return true;
      taken.push(part.text.slice(marker.length));
      return false;
    });
    return taken;
  }

  /** Replaces the result's first text part (the handler's own; a file step saved it). */
  replaceFirstText(text: string): string | undefined {
    const index = this.#main.findIndex((part) => part.type === 'text');
    const part = this.#main[index];
    if (part === undefined || part.type !== 'text') return undefined;
    this.#main[index] = { type: 'text', text };
    return part.text;
  }

  /** A note after the result, in the order the notes come. */
  addNote(text: string): void {
    this.#notes.push(text);
  }

  render(): ToolResult {
    const content = [
      ...this.#main,
      ...this.#notes.map((text) => ({ type: 'text' as const, text })),
    ];
    return this.#structured === undefined ? { content } : { content, structured: this.#structured };
  }
}

/** Whatever carries a call to the browser; the daemon client in production, a fake in tests. */
export interface ToolCaller {
  /** Returns the browser's result; the layers on the way add their notes to `response`. */
  call(
    action: ToolName,
    params: unknown,
    timeoutMs: number,
    response: ToolResponse,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<ToolResult>;
}
