/**
 * One response per call on the MCP server's side. The browser's result is its main part; the
 * layers on the way add notes (the resumed session's last calls, the project session's notes,
 * where a screenshot was saved), and a server step may turn the page's HTML into Markdown.
 * It is rendered once, by mcpServer.ts, when the call is done.
 */
import type { ServerData, ToolContent, ToolName, ToolResult } from '@browser-agent/protocol';

export class ToolResponse {
  #main: ToolContent[] = [];
  #structured: ToolResult['structured'];
  readonly #notes: string[] = [];
  /** The extension's typed data for the server's layers (files, page HTML, console events). */
  #serverData: ServerData = {};

  /** The browser's result. */
  setResult(result: ToolResult): void {
    this.#main = [...result.content];
    this.#structured = result.structured;
    this.#serverData = { ...result.serverData };
  }

  /**
   * Takes one field of the extension's server data: the layer that takes it owns it, and the
   * rendered result never carries any of it.
   */
  take<K extends keyof ServerData>(key: K): ServerData[K] {
    const value = this.#serverData[key];
    delete this.#serverData[key];
    return value;
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

  /**
   * Rewrites every text the browser sent before any layer saves or shows it: the text parts, the
   * console events, the page's HTML, and the files whose bytes are UTF-8 text (the secrets'
   * redaction, settings/secrets.ts). The storage state's cookies and localStorage items that
   * hold a secret are left out of it (a rewritten cookie would not restore), and a note says how
   * many: the file on disk, which the agent may read, never holds the value (#25.4).
   */
  rewriteAll(convert: (text: string) => string): void {
    this.mapText(convert);
    const data = this.#serverData;
    if (data.consoleEvents !== undefined)
      data.consoleEvents = data.consoleEvents.map((batch) => ({
        ...batch,
        entries: batch.entries.map((e) => ({
          ...e,
          text: convert(e.text),
          ...(e.location === undefined ? {} : { location: convert(e.location) }),
        })),
      }));
    if (data.pageHtml !== undefined)
      data.pageHtml = {
        ...data.pageHtml,
        url: convert(data.pageHtml.url),
        title: convert(data.pageHtml.title),
        html: convert(data.pageHtml.html),
      };
    if (data.files !== undefined)
      data.files = data.files.map((file) => ({ ...file, data: rewriteBytes(file.data, convert) }));
    if (data.storageState !== undefined) {
      const state = data.storageState;
      const clean = (...texts: string[]): boolean => texts.every((t) => convert(t) === t);
      const cookies = state.cookies.filter((c) =>
        clean(c.name, c.value, c.domain ?? '', c.path ?? ''),
      );
      let leftItems = 0;
      const origins = state.origins.map((o) => {
        const localStorage = o.localStorage.filter((item) => clean(item.name, item.value));
        leftItems += o.localStorage.length - localStorage.length;
        return { ...o, localStorage };
      });
      const leftCookies = state.cookies.length - cookies.length;
      data.storageState = { ...state, cookies, origins };
      if (leftCookies + leftItems > 0)
        this.addNote(
          `${leftCookies} cookie(s) and ${leftItems} localStorage item(s) that hold a --secrets value were left out of the saved state: a restore does not bring them back.`,
        );
    }
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

/** Base64 bytes rewritten as text when they are UTF-8 text; other bytes (a PDF, an image) as they are. */
function rewriteBytes(base64: string, convert: (text: string) => string): string {
  const bytes = Buffer.from(base64, 'base64');
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return base64;
  const out = convert(text);
  return out === text ? base64 : Buffer.from(out, 'utf8').toString('base64');
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
