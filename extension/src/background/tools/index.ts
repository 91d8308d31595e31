/**
 * The handler registry: every area's handlers spread into one record, wrapped once per the facts
 * of each tool's contract; the section steps every call's response gets; and the per-tab
 * recorders the worker starts on each debugger attach.
 */
import { toolContracts, type ToolContract, type ToolName } from '@browser-agent/protocol';
import type { SectionStep } from '../dispatcher';
import type { Handler, HandlerRegistry } from '../handlerContext';
import type { AttachHook } from '../tabStates';
import { keepRunning } from '../loading/keepRunning';
import { answeringPdfDetach } from '../loading/pdfPage';
import { trackChildFrames } from '../recorders/childFrames';
import { recordClickListeners } from '../recorders/clickListeners';
import { newConsoleEvents } from '../recorders/consoleCapture';
import { downloadsSection, recordDownloads } from '../recorders/downloads';
import { modalStateSection, raceDialogs, trackDialogs } from '../recorders/dialogs';
import { trackCrashes } from '../recovery/crashWatch';
import { fileChooserLine, trackFileChoosers } from '../recorders/fileChoosers';
import { recordNetwork } from '../recorders/networkLog';
import { consoleHandlers } from './console';
import { cookiesHandlers } from './cookies';
import { contentHandlers } from './content';
import { dialogsHandlers } from './dialogs';
import { evaluateHandlers } from './evaluate';
import { findHandlers } from './find';
import { formsHandlers } from './forms';
import { inputHandlers } from './input';
import { navigationHandlers } from './navigation';
import { networkHandlers } from './network';
import { routingHandlers } from './routing';
import { pdfHandlers } from './pdf';
import { interceptRoutes } from '../routing/routes';
import { snapshotHandlers } from './snapshot';
import { storageHandlers } from './storage';
import { tabsHandlers } from './tabs';
import { transactionsHandlers, type TransactionDeps } from './transactions';
import { verifyHandlers } from './verify';
import { visionHandlers } from './vision';
import { waitForHandlers } from './waitFor';

/**
 * Every result ends with the open dialog and file chooser of the current tab, so a model learns
 * of one from whatever it called and is reminded until it handles it (not for
 * `reportsModalState: false`).
 */
const modalState: SectionStep = async (contract, ctx, response) => {
  if (contract.reportsModalState === false) return;
  const tab = await ctx.currentTab().catch(() => undefined);
  if (tab === undefined) return;
  const dialog = modalStateSection(tab);
  const chooser = fileChooserLine(tab);
  if (dialog !== undefined)
    response.addText(chooser === undefined ? dialog : `${dialog}\n${chooser}`);
  else if (chooser !== undefined) response.addText(`### Modal state\n${chooser}`);
};

/**
 * Every result carries the current tab's console entries that are new since the last result;
 * the MCP server keeps them in log files and reports them briefly (recorders/consoleCapture.ts).
 */
const consoleEvents: SectionStep = async (_contract, ctx, response) => {
  const events = await ctx.currentTab().then(newConsoleEvents, () => undefined);
  if (events !== undefined) response.addServerData({ consoleEvents: [events] });
};

/**
 * Downloads the call started, with where they were saved; in launch mode the browser saves them
 * to the output directory (recorders/downloads.ts).
 */
const downloads: SectionStep = async (_contract, ctx, response) => {
  const tab = await ctx.currentTab().catch(() => undefined);
  if (tab === undefined) return;
  const section = await downloadsSection(tab, ctx.settings?.downloadDir);
  if (section !== undefined) response.addText(section);
};

/** The steps that add a section to a call's response, after its handler, in this order. */
export const sectionSteps: readonly SectionStep[] = [modalState, consoleEvents, downloads];

/** Steps the worker owns that some contracts ask for. */
export interface RegistrySteps {
  /** For `approval: 'script'`: asks the user first when the page holds a guarded form. */
  approveScript: <N extends ToolName>(handler: Handler<N>) => Handler<N>;
  /** For state-changing tools (not readOnlyHint): the permission mode's question first. */
  permit: <N extends ToolName>(contract: ToolContract, handler: Handler<N>) => Handler<N>;
}

const NO_STEPS: RegistrySteps = {
  approveScript: (handler) => handler,
  permit: (_contract, handler) => handler,
};

/** Every area's handlers in one record; a missing or extra tool fails to compile. */
function areaHandlers(transactions: TransactionDeps): HandlerRegistry {
  return {
    ...navigationHandlers,
    ...snapshotHandlers,
    ...findHandlers,
    ...inputHandlers,
    ...formsHandlers,
    ...dialogsHandlers,
    ...contentHandlers,
    ...tabsHandlers,
    ...evaluateHandlers,
    ...consoleHandlers,
    ...waitForHandlers,
    ...networkHandlers,
    ...routingHandlers,
    ...pdfHandlers,
    ...storageHandlers,
    ...cookiesHandlers,
    ...transactionsHandlers(transactions),
    ...verifyHandlers,
    ...visionHandlers,
  };
}

/**
 * The registry loop: each handler wrapped once, as its contract's facts say (approval,
 * readOnlyHint and permission for the permission gate).
 */
export function createHandlers(
  transactions: TransactionDeps,
  steps: RegistrySteps = NO_STEPS,
): HandlerRegistry {
  const raw = areaHandlers(transactions);
  const wrapped: Record<string, unknown> = {};
  for (const contract of toolContracts) {
    const c: ToolContract = contract;
    let handler = raw[contract.name] as Handler<ToolName>;
    if (c.approval === 'script') handler = steps.approveScript(handler);
    if (!c.annotations.readOnlyHint && c.permission !== 'steps') handler = steps.permit(c, handler);
    handler = answeringPdfDetach(c.title, handler);
    wrapped[contract.name] = c.blockedByDialog === false ? handler : withDialogRace(handler);
  }
  return wrapped as HandlerRegistry;
}

/**
 * A dialog open on the session's tab (whenever it opened) answers a call that it blocks with
 * DIALOG_OPEN, not a timeout (recorders/dialogs.ts). A session with no tab yet runs as it is.
 */
function withDialogRace(handler: Handler<ToolName>): Handler<ToolName> {
  return async (args, ctx) => {
    const tab = await ctx.currentTab().catch(() => undefined);
    return raceDialogs(tab, () => handler(args, ctx));
  };
}

/** Per-tab recorders the worker runs on every debugger attach. */
export const attachHooks: readonly AttachHook[] = [
  keepRunning,
  recordClickListeners,
  trackDialogs,
  trackCrashes,
  trackFileChoosers,
  recordNetwork,
  interceptRoutes,
  recordDownloads,
  trackChildFrames,
];
