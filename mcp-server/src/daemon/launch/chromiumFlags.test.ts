/**
 * The flags launch mode adds to a command line, and what a config's own flags keep: Chromium
 * reads only the last `--disable-features`, so ours must not silently cancel the user's.
 */
import { describe, expect, it } from 'vitest';
import { UNUSED_UI_FEATURES, withDisabledFeatures } from './chromiumFlags.js';

const disables = (args: string[]): string[] =>
  args.filter((a) => a.startsWith('--disable-features'));

describe('withDisabledFeatures', () => {
  it('adds one --disable-features when the args have none', () => {
    expect(withDisabledFeatures(['--lang=de'], ['A', 'B'])).toEqual([
      '--lang=de',
      '--disable-features=A,B',
    ]);
  });

  it("merges the args' own lists into the one flag, each feature once", () => {
    const args = withDisabledFeatures(
      ['--disable-features=Translate,A', '--lang=de', '--disable-features= MediaRouter'],
      ['A', 'B'],
    );
    expect(disables(args)).toEqual(['--disable-features=Translate,A,MediaRouter,B']);
    expect(args).toContain('--lang=de');
  });

  it('leaves enabled a feature the args enable', () => {
    const args = withDisabledFeatures(['--enable-features=A,Other'], ['A', 'B']);
    expect(disables(args)).toEqual(['--disable-features=B']);
    expect(args).toContain('--enable-features=A,Other');
    expect(withDisabledFeatures(['--enable-features=A'], ['A'])).toEqual(['--enable-features=A']);
  });

  it("names the omnibox's preloaded popups", () => {
    expect(UNUSED_UI_FEATURES).toEqual(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']);
  });
});
