/** One headless Chromium per test file, and pages wrapped as TabHandles for the handlers. */
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TabHandle } from '../tabStates';
import { cdpFromSession } from './cdpFromSession';
import { newTabState } from './fakeContext';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export interface RealTab {
  page: Page;
  tab: TabHandle;
}

let nextTabId = 1;

export async function openTab(browser: Browser): Promise<RealTab> {
  const page = await browser.newPage();
  const session = await page.context().newCDPSession(page);
  const tab: TabHandle = { tabId: nextTabId++, cdp: cdpFromSession(session), state: newTabState() };
  return { page, tab };
}

/**
 * What the handlers send the tab from now on, in order: each command's method, then the first
 * `expressionChars` characters of its expression if it has one.
 */
export function commandsSent(tab: TabHandle, expressionChars = 0): string[] {
  const sent: string[] = [];
  const { cdp } = tab;
  Object.assign(tab, {
    cdp: {
      ...cdp,
      send: (...call: Parameters<typeof cdp.send>) => {
        const params = call[1] as { expression?: string } | undefined;
        sent.push(`${call[0]} ${params?.expression?.slice(0, expressionChars) ?? ''}`.trim());
        return cdp.send(...call);
      },
    },
  });
  return sent;
}
