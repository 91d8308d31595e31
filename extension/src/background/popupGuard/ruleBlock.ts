/**
 * Which declarativeNetRequest session rule ids a worker may build and remove. Session rules are
 * one set per extension, shared by the regular worker and every split incognito context's
 * worker (each isolated session's, docs/isolated.md; measured: a rule added in one context is
 * listed in the other). A rebuild that replaced every rule took the other sessions' popup rules
 * with it, and their ids collided with its own. So a regular worker keeps the ids below
 * BLOCK_SIZE as before, and an incognito context's worker a block of its own, picked at random
 * among the blocks no rule uses yet.
 */

/** Two generations of up to 5,000 rules each (Chrome's cap for session rules). */
export const GENERATION_SIZE = 100_000;
const BLOCK_SIZE = 2 * GENERATION_SIZE;
/** Rule ids are 32-bit signed integers. */
const BLOCKS = Math.floor((2 ** 31 - 1) / BLOCK_SIZE);

export interface RuleBlock {
  /** The first id of this worker's block (0 for a regular worker). */
  offset: number;
  owns(id: number): boolean;
  /** Where the next generation starts: the other half of the block from the rules in place. */
  nextBase(current: readonly number[]): number;
}

export function ruleBlock(offset: number): RuleBlock {
  return {
    offset,
    owns: (id) => id > offset && id <= offset + BLOCK_SIZE - 1,
    nextBase: (current) =>
      current.some((id) => id >= offset + GENERATION_SIZE) ? offset + 1 : offset + GENERATION_SIZE,
  };
}

/**
 * A block for an incognito context: never block 0 (the regular worker's), never one a rule in
 * place already uses; `random` in [0, 1).
 */
export function pickIncognitoBlock(inUse: readonly number[], random: () => number): RuleBlock {
  const taken = new Set(inUse.map((id) => Math.floor(id / BLOCK_SIZE)));
  for (let attempt = 0; attempt < 100; attempt++) {
    const block = 1 + Math.floor(random() * (BLOCKS - 1));
    if (!taken.has(block)) return ruleBlock(block * BLOCK_SIZE);
  }
  // 100 taken blocks in a row: more contexts than Chrome's 5,000 rules leave room for.
  throw new Error('No free block of popup rule ids.');
}
