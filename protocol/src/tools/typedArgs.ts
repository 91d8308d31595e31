/**
 * Which arguments of a call carry what the agent typed, chose or expects a field to hold: the
 * contract's `secretArgs` and `typedArgs`, as paths (`text`, `fields[].value`,
 * `state.cookies[].value`). Every log of calls (the panel's live log, the session log, the
 * daemon's call log) hides them through here, so the fact is said once, in the contract.
 */
import type { ToolContract } from './contract.js';

type Replace = (value: unknown) => unknown;
/** The facts of a contract that say which arguments are typed. */
export type TypedArgsFacts = Pick<ToolContract, 'secretArgs' | 'typedArgs' | 'permission'>;

/** The paths a contract says carry typed text or secrets. */
export function typedArgPaths(
  contract: Pick<ToolContract, 'secretArgs' | 'typedArgs'> | undefined,
): readonly string[] {
  return [...(contract?.secretArgs ?? []), ...(contract?.typedArgs ?? [])];
}

/** Replaces what one path (`a.b[].c`) names in `node`; the given object is not changed. */
export function replaceAtPath(node: unknown, path: string, replace: Replace): unknown {
  return replaceAt(node, path.split('.'), replace);
}

function replaceAt(node: unknown, parts: readonly string[], replace: Replace): unknown {
  const [head = '', ...rest] = parts;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const record = node as Record<string, unknown>;
  const key = head.endsWith('[]') ? head.slice(0, -2) : head;
  if (!Object.hasOwn(record, key)) return node;
  const child = record[key];
  const next = (value: unknown): unknown =>
    rest.length === 0 ? replace(value) : replaceAt(value, rest, replace);
  if (!head.endsWith('[]')) return { ...record, [key]: next(child) };
  return Array.isArray(child) ? { ...record, [key]: child.map(next) } : node;
}

/** Replaces every value at the given paths. */
export function replaceAtPaths(args: unknown, paths: readonly string[], replace: Replace): unknown {
  return paths.reduce((out, p) => replaceAtPath(out, p, replace), args);
}

/**
 * A call's arguments with what its contract calls typed replaced; a call that runs other tools'
 * calls as steps (`permission: 'steps'`, browser_batch) has each step's own arguments replaced
 * by that step's contract.
 */
export function replaceTypedArgs(
  contract: TypedArgsFacts | undefined,
  args: unknown,
  replace: Replace,
  contractOf: (name: string) => TypedArgsFacts | undefined,
): unknown {
  const out = replaceAtPaths(args, typedArgPaths(contract), replace);
  if (contract?.permission !== 'steps') return out;
  return replaceAtPath(out, 'steps[]', (step) => {
    if (typeof step !== 'object' || step === null) return step;
    const { tool } = step as { tool?: unknown };
    const inner = typeof tool === 'string' ? contractOf(tool) : undefined;
    return replaceAtPath(step, 'args', (a) => replaceAtPaths(a, typedArgPaths(inner), replace));
  });
}
