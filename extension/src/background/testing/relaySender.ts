/** Senders of runtime messages as Chrome describes them, for the launch hand-off tests. */
import type { HandoffContext } from '../worker/launchHandoff';

export const EXTENSION_ID = 'ourextensionid';

/** Where the worker runs, as chromeHandoffContext() says in the extension. */
export function handoffContext(inMemory: boolean): HandoffContext {
  return {
    inMemory,
    extensionId: EXTENSION_ID,
    urlOf: (path) => `chrome-extension://${EXTENSION_ID}/${path}`,
  };
}

/** The relay page at `url`: the top frame of a tab (incognito in an isolated launch). */
export function relayPageSender(
  url: string,
  incognito: boolean,
  overrides: Partial<chrome.runtime.MessageSender> = {},
): chrome.runtime.MessageSender {
  return {
    id: EXTENSION_ID,
    url,
    origin: `chrome-extension://${EXTENSION_ID}`,
    frameId: 0,
    tab: { id: 7, incognito } as chrome.tabs.Tab,
    ...overrides,
  };
}
