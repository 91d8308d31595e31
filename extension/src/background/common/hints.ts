import type { ToolName } from '@browser-agent/protocol';

/** Tool names as hints mention them; typed so a renamed contract breaks the build, not the hint. */
const tool = <N extends ToolName>(name: N): N => name;

export const Hint = {
  freshRefs: `Call ${tool('browser_snapshot')} to get fresh refs.`,
  refFormat: `Use a ref ${tool('browser_snapshot')} shows, e.g. "e12" for [e12].`,
  listTabs: `Call ${tool('browser_tabs')} with action "list" to see valid indexes.`,
  checkUrl: 'Is the server running? Check the URL.',
  absoluteUrl: 'Give an absolute http(s) URL, e.g. https://example.com/.',
  restrictedUrl: 'Chrome does not let extensions control this page; open an http(s) page instead.',
  stillLoading: `The load was stopped, so the tab answers at once: ${tool('browser_snapshot')} shows what had arrived (the previous page if nothing did), ${tool('browser_navigate')} opens another URL.`,
  noHistory: `Use ${tool('browser_navigate')} to open a URL.`,
  notVisible: `Scroll or close what hides it, then call ${tool('browser_snapshot')} to check the element is shown.`,
  notEditable: `Use ${tool('browser_click')} for buttons, checkboxes and options, or ${tool('browser_evaluate')} to set other controls.`,
  useEvaluate: `To run script in the page, use ${tool('browser_evaluate')}.`,
  evaluateFunction: 'Pass a function, e.g. "() => document.title" or "(el) => el.value".',
  target: `Give one of: ref (from ${tool('browser_snapshot')}), role with name (and nth), or selector.`,
  find: `Call ${tool('browser_snapshot')} or ${tool('browser_find')} to see what the page has.`,
  dialogOpen: `Call ${tool('browser_handle_dialog')} to accept or dismiss it first.`,
  noDialog: 'No dialog is open.',
  notPainted: `The page may be busy; retry, or read it with ${tool('browser_snapshot')}.`,
  tabReplaced: `The bridge closed that tab and put a fresh blank tab in its place (this session's current tab, same index): call ${tool('browser_navigate')} to open a page again.`,
  serverSilent: `Check that the server runs and answers that URL; a slow server (a dev server's first compile) needs a longer navigation timeout (--timeout-navigation <ms>, or timeouts.navigationMs in the config). ${tool('browser_snapshot')} shows the page the tab still holds, ${tool('browser_navigate')} tries again.`,
  waitSnapshot: `Call ${tool('browser_snapshot')} to see what the page shows now.`,
} as const;
