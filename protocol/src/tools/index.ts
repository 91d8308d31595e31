import type { z } from 'zod';
import type { ToolContract, ToolGroup } from './contract.js';
import { close, navigate, navigateBack, navigateForward, reload, resize } from './navigation.js';
import { find, getHtml, getText, snapshot, takeScreenshot } from './snapshot.js';
import {
  click,
  drag,
  fileUpload,
  fillForm,
  handleDialog,
  hover,
  pressKey,
  scroll,
  selectOption,
  type,
} from './input.js';
import { tabs } from './tabs.js';
import {
  batch,
  sessionInfo,
  transactionBegin,
  transactionCommit,
  transactionRollback,
} from './transactions.js';
import {
  consoleMessages,
  evaluate,
  networkRequest,
  networkRequests,
  storage,
  waitFor,
} from './page.js';

export {
  defineTool,
  TOOL_GROUPS,
  type ToolContract,
  type ToolAnnotations,
  type ToolGroup,
} from './contract.js';
export { targetSchema, type ElementTarget } from './target.js';
export * from './outputs.js';
export { DEFAULT_SNAPSHOT_MAX_CHARS } from './snapshot.js';

/** Every tool, in the order tools/list shows them. */
export const toolContracts = [
  navigate,
  navigateBack,
  navigateForward,
  reload,
  snapshot,
  find,
  click,
  type,
  fillForm,
  selectOption,
  hover,
  drag,
  pressKey,
  scroll,
  fileUpload,
  handleDialog,
  getText,
  takeScreenshot,
  tabs,
  resize,
  close,
  evaluate,
  consoleMessages,
  waitFor,
  getHtml,
  networkRequests,
  networkRequest,
  storage,
  transactionBegin,
  transactionCommit,
  transactionRollback,
  batch,
  sessionInfo,
] as const;

type AnyContract = (typeof toolContracts)[number];
export type ToolName = AnyContract['name'];
export type ContractOf<N extends ToolName> = Extract<AnyContract, { name: N }>;
export type ToolArgs<N extends ToolName> = z.infer<ContractOf<N>['input']>;

const byName = new Map<string, ToolContract>(toolContracts.map((c) => [c.name, c]));

export function findContract(name: string): ToolContract | undefined {
  return byName.get(name);
}

export function isToolName(name: string): name is ToolName {
  return byName.has(name);
}

export function groupOf(contract: ToolContract): ToolGroup {
  return contract.group ?? 'core';
}

/** The contracts listed when the given opt-in groups are on (core always is). */
export function contractsFor(groups: readonly ToolGroup[]): AnyContract[] {
  return toolContracts.filter((c: AnyContract) => {
    const group = groupOf(c);
    return group === 'core' || groups.includes(group);
  });
}

/** Default timeout for a tool call when the contract gives none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
export { PAGE_HTML_MARKER, pageHtmlSchema, type PageHtml } from './pageHtml.js';
export { PROJECT_PATH_TOOLS, projectPathSchema, takesProjectPath } from './project.js';
