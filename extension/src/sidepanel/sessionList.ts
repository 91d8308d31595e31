import type { ClientInfo, Frame } from '@browser-agent/protocol';

/** The sessions the daemon announced, as the user sees them. */
export class SessionList {
  readonly #root: HTMLElement;
  readonly #sessions = new Map<string, ClientInfo>();

  constructor(root: HTMLElement) {
    this.#root = root;
  }

  clientName(sessionId: string): string {
    return this.#sessions.get(sessionId)?.name ?? sessionId.slice(0, 8);
  }

  apply(frame: Extract<Frame, { type: 'session_start' | 'session_end' }>): void {
    if (frame.type === 'session_start') this.#sessions.set(frame.sessionId, frame.client);
    else this.#sessions.delete(frame.sessionId);
    this.#render();
  }

  #render(): void {
    const items = [...this.#sessions].map(([id, client]) => {
      const li = document.createElement('li');
      li.dataset['sessionId'] = id;
      li.textContent = `${client.name} ${client.version}`;
      return li;
    });
    if (items.length === 0) {
      const empty = document.createElement('li');
      empty.className = 'empty';
      empty.textContent = 'No agent connected.';
      items.push(empty);
    }
    this.#root.replaceChildren(...items);
  }
}
