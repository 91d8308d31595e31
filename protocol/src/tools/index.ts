import type { z } from 'zod';
import type { ToolContract } from './contract.js';
import { navigate, navigateBack } from './navigation.js';
import { snapshot, takeScreenshot } from './snapshot.js';
import { click, type } from './input.js';
import { tabs } from './tabs.js';
import { evaluate, consoleMessages, waitFor } from './page.js';

export { defineTool, type ToolContract, type ToolAnnotations } from './contract.js';

/** Every tool, in the order tools/list shows them. */
export const toolContracts = [
  navigate,
  navigateBack,
  snapshot,
  click,
  type,
  takeScreenshot,
  tabs,
  evaluate,
  consoleMessages,
  waitFor,
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

/** Default timeout for a tool call when the contract gives none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
