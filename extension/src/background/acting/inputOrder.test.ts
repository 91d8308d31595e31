import { describe, expect, it } from 'vitest';
import { mouseClick } from './mouse';
import { pressKey, namedKey, type KeyDefinition } from './keyboard';
import { typeText } from './typing';
import { fakeCdp } from '../testing/fakeCdp';

/** A page that answers input only when told to: what was sent before any answer shows. */
function heldInput() {
  const held: (() => void)[] = [];
  const hold = (): Promise<never> =>
    new Promise<never>((resolve) => held.push(() => resolve(undefined as never)));
  const cdp = fakeCdp({
    'Input.dispatchMouseEvent': hold,
    'Input.dispatchKeyEvent': hold,
    'Input.insertText': hold,
  });
  const sent = (): string[] =>
    cdp.calls.map((c) => {
      const p = c.params as { type?: string; text?: string };
      return `${c.method.replace('Input.', '')}:${p.type ?? p.text ?? ''}`;
    });
  const answerAll = async (): Promise<void> => {
    while (held.length > 0) {
      for (const answer of held.splice(0)) answer();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { cdp, sent, answerAll };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('input is sent without waiting for each answer (#26: a round trip per event)', () => {
  it("sends a double click's move, presses and releases in order before Chrome answers one", async () => {
    const page = heldInput();
    const clicking = mouseClick(
      page.cdp,
      { x: 3, y: 4 },
      { clicks: 2, button: 'left', modifiers: 0 },
    );
    await tick();
    expect(page.sent()).toEqual([
      'dispatchMouseEvent:mouseMoved',
      'dispatchMouseEvent:mousePressed',
      'dispatchMouseEvent:mouseReleased',
      'dispatchMouseEvent:mousePressed',
      'dispatchMouseEvent:mouseReleased',
    ]);
    await page.answerAll();
    await clicking;
  });

  it("sends a key's down and up before Chrome answers the down", async () => {
    const page = heldInput();
    const pressing = pressKey(page.cdp, namedKey('Tab') as KeyDefinition);
    await tick();
    expect(page.sent()).toEqual(['dispatchKeyEvent:rawKeyDown', 'dispatchKeyEvent:keyUp']);
    await page.answerAll();
    await pressing;
  });

  it('sends Enter right behind inserted text', async () => {
    const page = heldInput();
    const typing = typeText(page.cdp, 'lamp', { slowly: false, clear: true, submit: true });
    await tick();
    expect(page.sent()).toEqual([
      'insertText:lamp',
      'dispatchKeyEvent:keyDown',
      'dispatchKeyEvent:keyUp',
    ]);
    await page.answerAll();
    await typing;
  });

  it('typed slowly, sends each key only after the one before was answered, Enter last', async () => {
    const page = heldInput();
    const typing = typeText(page.cdp, 'ab', { slowly: true, clear: true, submit: true });
    await tick();
    expect(page.sent()).toEqual(['dispatchKeyEvent:keyDown', 'dispatchKeyEvent:keyUp']);
    await page.answerAll();
    await typing;
    const keys = page.cdp.calls.map((c) => (c.params as { key?: string; type: string }).key);
    expect(keys).toEqual(['a', 'a', 'b', 'b', 'Enter', 'Enter']);
  });
});
