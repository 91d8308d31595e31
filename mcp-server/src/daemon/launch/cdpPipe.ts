/**
 * A minimal CDP client over Chromium's --remote-debugging-pipe (fd 3: to the browser, fd 4: from
 * it; NUL-separated JSON). A pipe, unlike --remote-debugging-port, is not reachable by any other
 * process on the machine, so launch mode adds no new way in.
 */
import type { Readable, Writable } from 'node:stream';

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class CdpPipe {
  readonly #out: Writable;
  #nextId = 1;
  #buffer = '';
  readonly #pending = new Map<
    number,
    { resolve(r: Record<string, unknown>): void; reject(e: Error): void }
  >();
  readonly #listeners = new Set<(method: string, params: Record<string, unknown>) => void>();

  constructor(out: Writable, input: Readable) {
    this.#out = out;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.#onData(chunk));
    input.on('close', () => {
      for (const p of this.#pending.values())
        p.reject(new Error('The browser closed its debugging pipe.'));
      this.#pending.clear();
    });
    out.on('error', () => undefined);
  }

  /** `sessionId`: a target's session from Target.attachToTarget with `flatten`. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const session = sessionId === undefined ? {} : { sessionId };
      this.#out.write(`${JSON.stringify({ id, method, params, ...session })}\0`);
    });
  }

  onEvent(listener: (method: string, params: Record<string, unknown>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    let end;
    while ((end = this.#buffer.indexOf('\0')) >= 0) {
      const raw = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      let message: CdpMessage;
      try {
        message = JSON.parse(raw) as CdpMessage;
      } catch {
        continue;
      }
      if (message.id !== undefined) {
        const p = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) p?.reject(new Error(message.error.message));
        else p?.resolve(message.result ?? {});
      } else if (message.method) {
        for (const l of this.#listeners) l(message.method, message.params ?? {});
      }
    }
  }
}

/** What waitForTarget found. */
export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

/**
 * Resolves with the first target whose URL starts with `prefix`, once it exists (created now or before). Discovery
 * is then turned off again: left on, the browser sent a Target.targetInfoChanged down the pipe for
 * every page load and title change of every tab, which nobody read, to the daemon, while it was
 * passing that page's results on.
 */
export async function waitForTarget(
  cdp: CdpPipe,
  prefix: string,
  timeoutMs: number,
): Promise<TargetInfo> {
  return new Promise<TargetInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`No target ${prefix}* within ${timeoutMs} ms: the extension did not load.`));
    }, timeoutMs);
    const done = (info: TargetInfo): void => {
      clearTimeout(timer);
      off();
      cdp.send('Target.setDiscoverTargets', { discover: false }).catch(() => undefined);
      resolve(info);
    };
    const off = cdp.onEvent((method, params) => {
      const info = params['targetInfo'] as Partial<TargetInfo> | undefined;
      if (
        (method === 'Target.targetCreated' || method === 'Target.targetInfoChanged') &&
        info?.url?.startsWith(prefix)
      )
        done({ targetId: info.targetId ?? '', type: info.type ?? '', url: info.url });
    });
    cdp.send('Target.setDiscoverTargets', { discover: true }).catch((err: unknown) => {
      clearTimeout(timer);
      off();
      reject(err instanceof Error ? err : new Error(String(err)));
    });
  });
}
