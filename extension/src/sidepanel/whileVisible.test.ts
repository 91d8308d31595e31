import { describe, expect, it } from 'vitest';
import { WhileVisible, type VisibilitySource } from './whileVisible';

class FakeDocument implements VisibilitySource {
  visibilityState: DocumentVisibilityState;
  readonly #listeners: Array<() => void> = [];

  constructor(state: DocumentVisibilityState) {
    this.visibilityState = state;
  }

  addEventListener(_type: 'visibilitychange', listener: () => void): void {
    this.#listeners.push(listener);
  }

  show(state: DocumentVisibilityState): void {
    this.visibilityState = state;
    for (const listener of this.#listeners) listener();
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('WhileVisible', () => {
  it('runs once per task on a visible page, however often it is asked', async () => {
    const doc = new FakeDocument('visible');
    let runs = 0;
    const fit = new WhileVisible(() => runs++, doc);
    fit.run();
    fit.run();
    fit.run();
    expect(runs).toBe(0);
    await tick();
    expect(runs).toBe(1);
    fit.run();
    await tick();
    expect(runs).toBe(2);
  });

  it('holds the work while the page is hidden and runs it once when it shows', async () => {
    const doc = new FakeDocument('hidden');
    let runs = 0;
    const fit = new WhileVisible(() => runs++, doc);
    for (let i = 0; i < 50; i++) {
      fit.run();
      await tick();
    }
    expect(runs).toBe(0);
    doc.show('visible');
    expect(runs).toBe(0);
    await tick();
    expect(runs).toBe(1);
  });

  it('does nothing on showing when nothing was held', async () => {
    const doc = new FakeDocument('hidden');
    let runs = 0;
    new WhileVisible(() => runs++, doc);
    doc.show('visible');
    await tick();
    expect(runs).toBe(0);
  });

  it('holds again when the page hides after showing', async () => {
    const doc = new FakeDocument('visible');
    let runs = 0;
    const fit = new WhileVisible(() => runs++, doc);
    fit.run();
    await tick();
    doc.show('hidden');
    fit.run();
    await tick();
    expect(runs).toBe(1);
    doc.show('visible');
    await tick();
    expect(runs).toBe(2);
  });
});
