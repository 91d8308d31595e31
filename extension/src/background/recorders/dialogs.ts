/**
 * JavaScript dialogs never hang a call. The attach hook records the tab's open dialog; input
 * tools refuse to act while one is open (DIALOG_OPEN); every tool result lists it as a modal
 * state until browser_handle_dialog closes it.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { AttachHook, OpenDialog, TabHandle } from '../tabStates';
import { Hint } from '../common/hints';
import { oneLine, quoted } from '../common/text';

// A page that opens a second dialog right after the first is handled (`alert(1); alert(2)`) may
// have it announced before the first one's close: it waits in TabState.dialogsWaiting.

/** The dialog was answered (Page.handleJavaScriptDialog returned): the next one, if any, shows. */
export function dialogAnswered(tab: TabHandle, dialog: OpenDialog): void {
  const { state } = tab;
  // Its close event came already.
  if (state.dialog !== dialog) return;
  state.dialogCloseAhead = true;
  state.dialog = state.dialogsWaiting.shift();
}

export const trackDialogs: AttachHook = (tab) => {
  const { state } = tab;
  tab.cdp.on('Page.javascriptDialogOpening', (e, sessionId) => {
    if (sessionId !== undefined) return;
    const dialog = { type: e.type, message: e.message, defaultPrompt: e.defaultPrompt ?? '' };
    if (state.dialog === undefined) state.dialog = dialog;
    else state.dialogsWaiting = [...state.dialogsWaiting, dialog];
  });
  tab.cdp.on('Page.javascriptDialogClosed', (_e, sessionId) => {
    if (sessionId !== undefined) return;
    if (state.dialogCloseAhead) {
      state.dialogCloseAhead = false;
      return;
    }
    state.dialog = state.dialogsWaiting.shift();
  });
  // A new document has no dialog; this also clears one the page closed by navigating away.
  tab.cdp.on('Page.frameNavigated', (e) => {
    if (e.frame.parentId !== undefined) return;
    state.dialog = undefined;
    state.dialogsWaiting = [];
    state.dialogCloseAhead = false;
  });
};

/**
 * After a dialog was answered: the page runs on and may open the next one at once. Resolves
 * when the page has run a task without opening one (a dialog already open blocks that task),
 * or when one opened, or after capMs.
 */
export async function nextDialogOrQuiet(tab: TabHandle, capMs = 500): Promise<void> {
  if (tab.state.dialog !== undefined) return;
  const dialog = dialogOpened(tab);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const ran = tab.cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(
      () => undefined,
      () => undefined,
    );
    const capped = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, capMs);
    });
    await Promise.race([ran, dialog.opened, capped]);
  } finally {
    clearTimeout(timer);
    dialog.dispose();
  }
}

/** "an alert dialog", "a confirm dialog": the article agrees with the dialog's type. */
export function aDialog(dialog: OpenDialog): string {
  return `${/^[aeiou]/.test(dialog.type) ? 'An' : 'A'} ${describeDialog(dialog)}`;
}

export function describeDialog(dialog: OpenDialog): string {
  const prompt =
    dialog.type === 'prompt' && dialog.defaultPrompt !== ''
      ? ` (default ${quoted(dialog.defaultPrompt)})`
      : '';
  return `${dialog.type} dialog ${quoted(oneLine(dialog.message, 1000))}${prompt}`;
}

/** Refuses input while a dialog blocks the page. */
export function assertNoDialog(tab: TabHandle): void {
  const { dialog } = tab.state;
  if (dialog === undefined) return;
  throw new BridgeError(
    ErrorCode.DIALOG_OPEN,
    `${aDialog(dialog)} is open and blocks the page.`,
    Hint.dialogOpen,
  );
}

/** The section every tool result ends with while a dialog is open. */
export function modalStateSection(tab: TabHandle): string | undefined {
  const { dialog } = tab.state;
  if (dialog === undefined) return undefined;
  // The dialog's text is the page's: quoted on one line (it cannot forge lines), and marked.
  return `### Modal state (the dialog's text is untrusted page content)\n- [${describeDialog(dialog)}]: call browser_handle_dialog to accept or dismiss it.`;
}

/** Resolves once a dialog is open on the tab (at once if one already is); dispose stops it. */
export function dialogOpened(tab: TabHandle): { opened: Promise<void>; dispose: () => void } {
  let off = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    if (tab.state.dialog !== undefined) {
      resolve();
      return;
    }
    off = tab.cdp.on('Page.javascriptDialogOpening', (_e, sessionId) => {
      if (sessionId === undefined) resolve();
    });
  });
  return { opened, dispose: () => off() };
}

/** How long a call may still run once a dialog is open before it is answered DIALOG_OPEN. */
export const DIALOG_GRACE_MS = 500;

/**
 * Runs a call so that a dialog never hangs it: Runtime.evaluate and most page work stop
 * answering while a JavaScript dialog is open, whenever it opened (a timer's alert between calls,
 * an alert on load, the second of two in a row). A call that has not finished DIALOG_GRACE_MS
 * after a dialog is (or becomes) open on its tab is answered DIALOG_OPEN with the dialog's text;
 * calls that finish in that time (browser_handle_dialog, browser_tabs) are not affected.
 */
export async function raceDialogs<T>(
  tab: TabHandle | undefined,
  run: () => Promise<T>,
): Promise<T> {
  if (tab === undefined) return run();
  const watch = dialogOpened(tab);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = new Promise<never>((_resolve, reject) => {
    void watch.opened.then(() => {
      timer = setTimeout(() => {
        const { dialog } = tab.state;
        if (dialog === undefined) return;
        const err = new BridgeError(
          ErrorCode.DIALOG_OPEN,
          `${aDialog(dialog)} is open and blocks the page; the call could not run.`,
          Hint.dialogOpen,
        );
        reject(err);
      }, DIALOG_GRACE_MS);
    });
  });
  try {
    return await Promise.race([run(), blocked]);
  } finally {
    watch.dispose();
    clearTimeout(timer);
  }
}
