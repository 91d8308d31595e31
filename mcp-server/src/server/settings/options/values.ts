/**
 * The value schemas the entries are made of. Every one names what it expected, so a bad value
 * from any source reads `config viewport.width: expected a positive integer, got "wide"`.
 */
import { z } from 'zod';
import { parseOriginEntry, TRANSACTION_LIMIT_RANGES } from '@browser-agent/protocol';

export const positiveInt = (what = 'a positive integer') =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .positive({
      error: `expected ${what}`,
    });

/** The protocol's range for a transaction limit, with an error that states it. */
export const limit = (key: keyof typeof TRANSACTION_LIMIT_RANGES) => {
  const { min, max } = TRANSACTION_LIMIT_RANGES[key];
  const error = `expected a whole number from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

export const bool = () => z.boolean({ error: 'expected true or false' });

export const text = () =>
  z.string({ error: 'expected a string' }).min(1, { error: 'expected a string' });

/** An array of non-empty strings, at most `max` of them. */
export const textList = (expected: string, max: number) =>
  z
    .array(text(), { error: `expected an array of ${expected}` })
    .max(max, { error: `expected at most ${max} entries` });

export const originList = () =>
  z
    .array(
      text().refine((entry) => parseOriginEntry(entry) !== undefined, {
        error:
          'expected an origin ("https://a.test", "http://localhost:*") or a host ("a.test", "*.a.test", "localhost:3000")',
      }),
      { error: 'expected an array of origins like "https://example.com"' },
    )
    .max(200, { error: 'expected at most 200 entries' });

/** One of a closed set, with an error that lists them: `expected "allow" or "omit"`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => {
  const quoted = values.map((v) => `"${v}"`);
  const error =
    quoted.length === 1
      ? `expected ${quoted[0]}`
      : `expected ${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  return z.enum(values, { error });
};
