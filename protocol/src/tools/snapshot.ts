/** Snapshot area: the tab's outline with element refs. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

/** About 10k tokens: one snapshot should never crowd out the rest of an agent's context. */
export const DEFAULT_SNAPSHOT_MAX_CHARS = 40_000;

/** Structured result: the page the outline is of, beside the outline text. */
export const snapshotOutput = z.object({
  url: z.string(),
  title: z.string(),
  /** Refs of this generation are the ones element tools take. */
  generation: z.number(),
  /** Some lines were left out to fit maxChars (the text says how to see them). */
  truncated: z.boolean(),
});
export type SnapshotOutput = z.infer<typeof snapshotOutput>;

export const snapshot = defineTool({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description:
    'Accessibility outline of the page; [eN] after an element is its ref for element tools (ref "eN").',
  input: z.object({
    ref: z.string().optional().describe('Only this subtree'),
    depth: z.number().min(1).optional().describe('Levels to show'),
    maxChars: z.number().min(1000).optional().describe(`Cut here (${DEFAULT_SNAPSHOT_MAX_CHARS})`),
    boxes: z.boolean().optional().describe('Add [box=x,y,w,h] (CSS px)'),
    filename: z.string().max(4096).optional().describe('Save to this .md file instead'),
  }),
  output: snapshotOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  takesProjectPath: true,
  serverStep: 'saveSnapshot',
});

/** The snapshot area's tools, in the order tools/list shows them. */
export const snapshotContracts = [snapshot] as const;
