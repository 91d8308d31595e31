/** The side panel's ask-before-submit setting and questions (issue #7), for the specs. */
import type { Page } from '@playwright/test';
import { expect, type Bridge } from './harness.js';

export async function askBeforeSecretSubmit(bridge: Bridge): Promise<void> {
  await bridge.relay.locator('#settings summary').click();
  await bridge.relay.locator('#ask-secret-submit').check();
  // Saved by the worker before the first call, so that call is guarded.
  await expect
    .poll(() =>
      bridge.extensionWorker().evaluate(async () => {
        const storage = (
          globalThis as unknown as {
            chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
          }
        ).chrome.storage.local;
        return (await storage.get('settings'))['settings'];
      }),
    )
    .toMatchObject({ askBeforeSecretSubmit: true });
}

export function question(panel: Page) {
  return panel.locator('#questions .question');
}
