/**
 * The settings a server runs with, as one zod schema built from the entries' keys and value
 * schemas (options/): the JSON config file (`--config`) is checked against it, and so is the
 * merge of file, environment and flags. Every object is strict, so a misspelt key is refused at
 * startup instead of being silently ignored.
 */
import { z } from 'zod';
import type { SettingEntry } from './setting.js';
import { ALL_SETTINGS } from './options/index.js';

interface Node {
  leaf?: z.ZodType;
  children: Map<string, Node>;
}

function objectOf(node: Node): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, child] of node.children) {
    shape[name] = (child.leaf ?? objectOf(child)).optional();
  }
  return z.strictObject(shape);
}

/** Nests the entries' dotted keys into strict objects, in the entries' order. */
export function buildConfigSchema(entries: readonly SettingEntry[]): z.ZodObject {
  const root: Node = { children: new Map() };
  for (const entry of entries) {
    if (entry.key === undefined) continue;
    if (entry.schema === undefined) throw new Error(`setting ${entry.key} has no schema`);
    let node = root;
    for (const part of entry.key.split('.')) {
      if (node.leaf !== undefined) throw new Error(`setting ${entry.key} is inside another one`);
      let child = node.children.get(part);
      if (child === undefined) node.children.set(part, (child = { children: new Map() }));
      node = child;
    }
    if (node.leaf !== undefined || node.children.size > 0) {
      throw new Error(`setting ${entry.key} is declared twice, or inside another setting`);
    }
    node.leaf = entry.schema;
  }
  return objectOf(root);
}

export const configSchema = buildConfigSchema(ALL_SETTINGS);

/** A config object that passed the schema; read a setting from it with `valueOf`. */
export type Config = Readonly<Record<string, unknown>>;
