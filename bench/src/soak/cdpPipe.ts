/**
 * A browser-level CDP connection over --remote-debugging-pipe (fd 3 to the browser, fd 4 from
 * it; NUL-terminated JSON messages). It never attaches to a page, so the `attached` flag of a page
 * target reports other clients only: here, the extension's chrome.debugger.
 */
import type { Readable, Writable } from 'node:stream';

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class CdpPipe {
  readonly #out: Writable;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #buffer = '';

  constructor(out: Writable, input: Readable) {
    this.#out = out;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.#onData(chunk));
    input.on('close', () => this.#failAll(new Error('The browser closed the debugging pipe.')));
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#out.write(`${JSON.stringify({ id, method, params })}\0`);
    });
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    for (let end = this.#buffer.indexOf('\0'); end >= 0; end = this.#buffer.indexOf('\0')) {
      const message = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      this.#onMessage(JSON.parse(message) as unknown);
    }
  }

  #onMessage(message: unknown): void {
    if (typeof message !== 'object' || message === null || !('id' in message)) return;
    const pending = this.#pending.get(Number(message.id));
    if (!pending) return;
    this.#pending.delete(Number(message.id));
    if ('error' in message) pending.reject(new Error(JSON.stringify(message.error)));
    else pending.resolve('result' in message ? message.result : undefined);
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
