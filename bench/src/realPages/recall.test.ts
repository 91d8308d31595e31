import { describe, expect, it } from 'vitest';
import { recall } from './recall.js';

describe('recall', () => {
  it('finds names whatever the quoting, and only whole', () => {
    const yaml = '- link "Blue kettle 7" [ref=e3]\n- button "Add blue kettle 7 to cart"';
    expect(recall(yaml, ['Blue kettle 7', 'Add blue kettle 7 to cart'])).toBe(1);
    expect(recall('uid=1_2 link "item 71"', ['item 7'])).toBe(0);
    expect(recall('a b', ['a', 'c'])).toBe(0.5);
    expect(recall('', [])).toBe(1);
  });
});
