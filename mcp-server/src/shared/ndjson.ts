import { MAX_FRAME_BYTES } from '@browser-agent/protocol';

/**
 * Splits a byte stream into lines. A line longer than the frame cap is dropped as it streams
 * (reported once through onOversize) instead of being buffered without bound.
 */
export class LineSplitter {
  #buffer = '';
  #discarding = false;
  readonly #onLine: (line: string) => void;
  readonly #onOversize: () => void;
  readonly #maxChars: number;

  constructor(
    onLine: (line: string) => void,
    onOversize: () => void,
    maxChars: number = MAX_FRAME_BYTES,
  ) {
    this.#onLine = onLine;
    this.#onOversize = onOversize;
    this.#maxChars = maxChars;
  }

  push(chunk: string): void {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf('\n');
      if (nl === -1) break;
      const piece = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (this.#discarding) {
        this.#discarding = false;
        this.#buffer = '';
        continue;
      }
      const line = this.#buffer + piece;
      this.#buffer = '';
      if (line.length > this.#maxChars) this.#onOversize();
      else if (line.trim() !== '') this.#onLine(line);
    }
    if (this.#discarding) return;
    this.#buffer += rest;
    if (this.#buffer.length > this.#maxChars) {
      this.#buffer = '';
      this.#discarding = true;
      this.#onOversize();
    }
  }
}
