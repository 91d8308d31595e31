import type { z } from 'zod';
import type { ToolContract, ToolGroup } from './contract.js';
import { replaceTypedArgs } from './typedArgs.js';
import { navigationContracts } from './navigation.js';
import { snapshotContracts } from './snapshot.js';
import { findContracts } from './find.js';
import { inputContracts } from './input.js';
import { formsContracts } from './forms.js';
import { dialogsContracts } from './dialogs.js';
import { contentContracts } from './content.js';
import { tabsContracts } from './tabs.js';
import { evaluateContracts } from './evaluate.js';
import { consoleContracts } from './console.js';
import { waitForContracts } from './waitFor.js';
import { networkContracts } from './network.js';
import { routingContracts } from './routing.js';
import { pdfContracts } from './pdf.js';
import { storageContracts } from './storage.js';
import { cookiesContracts } from './cookies.js';
import { transactionsContracts } from './transactions.js';
import { verifyContracts } from './verify.js';
import { visionContracts } from './vision.js';

export {
  defineTool,
  TOOL_GROUPS,
  type ToolContract,
  type ToolAnnotations,
  type ToolGroup,
  SERVER_STEP_KINDS,
  type ServerStepKind,
} from './contract.js';
export { targetSchema, type ElementTarget } from './target.js';
export {
  typedArgPaths,
  replaceAtPaths,
  replaceTypedArgs,
  type TypedArgsFacts,
} from './typedArgs.js';
export { tabsOutput, type TabsOutput } from './tabs.js';
export { evaluateOutput, type EvaluateOutput } from './evaluate.js';
export {
  consoleOutput,
  type ConsoleOutput,
  CONSOLE_LEVELS,
  type ConsoleLevel,
  consoleEventsSchema,
  type ConsoleEvents,
} from './console.js';
export { networkRequestsOutput, type NetworkRequestsOutput } from './network.js';
export { findOutput, type FindOutput } from './find.js';
export { snapshotOutput, type SnapshotOutput } from './snapshot.js';
export { verifyOutput, locatorOutput, type VerifyOutput, type LocatorOutput } from './verify.js';
export { webStorageOutput, type WebStorageOutput } from './storage.js';
export { cookiesOutput, type CookiesOutput } from './cookies.js';
export { sessionInfoOutput, type SessionInfoOutput } from './transactions.js';
export { DEFAULT_SNAPSHOT_MAX_CHARS } from './snapshot.js';

/** Every tool, in the order tools/list shows them. */
export const toolContracts = [
  ...navigationContracts,
  ...snapshotContracts,
  ...findContracts,
  ...inputContracts,
  ...formsContracts,
  ...dialogsContracts,
  ...contentContracts,
  ...tabsContracts,
  ...evaluateContracts,
  ...consoleContracts,
  ...waitForContracts,
  ...networkContracts,
  ...routingContracts,
  ...pdfContracts,
  ...storageContracts,
  ...cookiesContracts,
  ...transactionsContracts,
  ...verifyContracts,
  ...visionContracts,
] as const;

type AnyContract = (typeof toolContracts)[number];
export type ToolName = AnyContract['name'];
export type ContractOf<N extends ToolName> = Extract<AnyContract, { name: N }>;
export type ToolArgs<N extends ToolName> = z.infer<ContractOf<N>['input']>;

const byName = new Map<string, ToolContract>(toolContracts.map((c) => [c.name, c]));

export function findContract(name: string): ToolContract | undefined {
  return byName.get(name);
}

/** A call's arguments with what its tool's contract calls typed replaced (typedArgs.ts). */
export function replaceTypedArgsOf(
  tool: string,
  args: unknown,
  replace: (value: unknown) => unknown,
): unknown {
  return replaceTypedArgs(findContract(tool), args, replace, findContract);
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
export { pageHtmlSchema, type PageHtml } from './content.js';
export { projectPathSchema } from './project.js';
export { storageStateSchema, stateCookieSchema, type StorageState } from './storage.js';
