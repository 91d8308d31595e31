import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_SETTINGS, SETTING_GROUPS } from './index.js';
import { buildConfigSchema, configSchema } from '../configSchema.js';
import { flagValue } from '../configSources.js';
import { setting, valueOf } from '../setting.js';

describe('the setting entries', () => {
  it('name every flag, alias, negation, variable and config key once', () => {
    const names = ALL_SETTINGS.flatMap((e) => [
      ...[e.flag, ...(e.aliases ?? []), e.negation]
        .filter((n) => n !== undefined)
        .map((n) => `--${n}`),
      ...(e.env === undefined ? [] : [e.env]),
      ...(e.key === undefined ? [] : [e.key]),
    ]);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(new Set(SETTING_GROUPS.map((g) => g.title)).size).toBe(SETTING_GROUPS.length);
  });

  it('give every config key a schema, and every default passes it', () => {
    for (const entry of ALL_SETTINGS) {
      if (entry.key !== undefined) expect(entry.schema, entry.key).toBeDefined();
      if (entry.key !== undefined && entry.default !== undefined) {
        expect(entry.schema?.safeParse(entry.default).success, entry.key).toBe(true);
      }
      expect(entry.help, entry.flag ?? entry.key).toMatch(/^\S.*\S$/);
      expect(entry.flag ?? entry.key, 'an entry without flag or key does nothing').toBeDefined();
    }
  });

  it('make the config schema: each dotted key nested, strict at every level', () => {
    expect(
      configSchema.safeParse({ browser: { launchOptions: { proxy: { server: 'x' } } } }).success,
    ).toBe(true);
    expect(
      configSchema.safeParse({ browser: { launchOptions: { proxy: { sever: 'x' } } } }).success,
    ).toBe(false);
    const slowMo = setting({
      key: 'browser.slowMo',
      kind: 'int',
      schema: z.number(),
      default: 0,
      help: 'Wait.',
    });
    const schema = buildConfigSchema([slowMo]);
    expect(schema.parse({ browser: { slowMo: 5 } })).toEqual({ browser: { slowMo: 5 } });
    expect(valueOf({ browser: { slowMo: 5 } }, slowMo)).toBe(5);
    expect(valueOf({}, slowMo)).toBe(0);
    expect(() => buildConfigSchema([slowMo, slowMo])).toThrow('declared twice');
    const parent = setting({ key: 'browser', kind: 'string', schema: z.string(), help: 'x' });
    expect(() => buildConfigSchema([parent, slowMo])).toThrow('inside another one');
    expect(() => buildConfigSchema([{ key: 'a', kind: 'int', help: 'x' }])).toThrow(
      'has no schema',
    );
  });

  it('read a flag under its name, an alias, or false from its negation', () => {
    const entry = setting({
      flag: 'headless',
      aliases: ['hl'],
      negation: 'headed',
      kind: 'bool',
      help: 'x',
    });
    expect(flagValue({ headless: true }, entry)).toBe(true);
    expect(flagValue({ hl: true }, entry)).toBe(true);
    expect(flagValue({ headed: true }, entry)).toBe(false);
    expect(flagValue({}, entry)).toBeUndefined();
  });
});
