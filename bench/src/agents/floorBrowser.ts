import { chromium, type Browser } from 'playwright-core';
import { CHROME_PATH, CHROMIUM_FLAGS } from '../paths.js';

/** The floor's Chromium: the same binary and flags as the bridge's, started by playwright-core. */
export function launchFloorBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROMIUM_FLAGS });
}
