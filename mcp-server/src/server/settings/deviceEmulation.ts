/**
 * `--device <name>` / `--mobile` and `--init-script <file>`: turned into the session settings the
 * extension applies to every tab (extension/src/background/emulation/). A small table of common
 * devices: the viewport in CSS px, the pixel ratio, whether the page gets a mobile layout and
 * touch, and a user agent of that kind of device.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionSettings } from '@browser-agent/protocol';
import { ConfigError } from './configFile.js';

interface Device {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  mobile: boolean;
  touch: boolean;
  userAgent: string;
}

const IOS_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const androidUa = (model: string): string =>
  `Mozilla/5.0 (Linux; Android 14; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36`;

const phone = (width: number, height: number, dpr: number, userAgent: string): Device => ({
  viewport: { width, height },
  deviceScaleFactor: dpr,
  mobile: true,
  touch: true,
  userAgent,
});

/** Names as Playwright's device list spells them, so a copied `--device` works. */
export const DEVICES: Readonly<Record<string, Device>> = {
  'iPhone 15': phone(393, 659, 3, IOS_UA),
  'iPhone 15 Pro Max': phone(430, 739, 3, IOS_UA),
  'iPhone 13': phone(390, 664, 3, IOS_UA),
  'iPhone SE': phone(320, 568, 2, IOS_UA),
  'iPad Mini': phone(768, 1024, 2, IPAD_UA),
  'iPad Pro 11': phone(834, 1194, 2, IPAD_UA),
  'Pixel 7': phone(412, 839, 2.625, androidUa('Pixel 7')),
  'Pixel 5': phone(393, 727, 2.75, androidUa('Pixel 5')),
  'Galaxy S9+': phone(320, 658, 4.5, androidUa('SM-G965U')),
  'Galaxy Tab S4': phone(712, 1138, 2.25, androidUa('SM-T837A')),
};

export interface EmulationSettings {
  viewport?: { width: number; height: number };
  emulation?: NonNullable<SessionSettings['emulation']>;
}

/** The device's viewport and emulation; `--mobile` alone is a phone's layout and touch. */
export function deviceEmulation(
  device: string | undefined,
  mobile: boolean | undefined,
): EmulationSettings {
  if (device !== undefined) {
    const key = Object.keys(DEVICES).find((k) => k.toLowerCase() === device.trim().toLowerCase());
    const found = key === undefined ? undefined : DEVICES[key];
    if (found === undefined) {
      throw new ConfigError(
        `--device: unknown device "${device}"; known: ${Object.keys(DEVICES).join(', ')}. Or set --viewport (and --mobile).`,
      );
    }
    return {
      viewport: { ...found.viewport },
      emulation: {
        deviceScaleFactor: found.deviceScaleFactor,
        mobile: found.mobile,
        touch: found.touch,
        userAgent: found.userAgent,
      },
    };
  }
  if (mobile === true) return { emulation: { mobile: true, touch: true, deviceScaleFactor: 2 } };
  return {};
}

const MAX_INIT_SCRIPT_BYTES = 1_000_000;

/** The init scripts' sources, joined, each in its own block so one's `const` cannot clash. */
export function readInitScripts(files: readonly string[] | undefined): string | undefined {
  if (files === undefined || files.length === 0) return undefined;
  const parts = files.map((file) => {
    const full = path.resolve(file);
    let source: string;
    try {
      source = readFileSync(full, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `--init-script: cannot read ${full} (${(err as NodeJS.ErrnoException).code ?? String(err)}). Give the path of a JavaScript file.`,
      );
    }
    return `{\n${source}\n}`;
  });
  const joined = parts.join('\n');
  if (Buffer.byteLength(joined) > MAX_INIT_SCRIPT_BYTES) {
    throw new ConfigError(`--init-script: the scripts together exceed 1 MB.`);
  }
  return joined;
}
