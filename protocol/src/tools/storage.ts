/**
 * Storage area: the page's localStorage and sessionStorage, one verb per tool (list, get, set,
 * delete, clear, as Playwright MCP names them), the older all-in-one `browser_storage`, and the
 * storage state (cookies + localStorage) saved to and loaded from a file.
 */
import { z } from '../zod.js';
import { defineTool, type ToolAnnotations } from './contract.js';

export const storage = defineTool({
  name: 'browser_storage',
  title: 'Storage',
  description:
    "The current page's localStorage, sessionStorage or cookies (cookie values hidden); or clear one of them.",
  input: z.object({
    area: z.enum(['local', 'session', 'cookies']).describe('Which storage'),
    clear: z.boolean().optional().describe('Empty it instead of reading it'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  group: 'storage',
});

const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

const key = z.string().max(10_000).describe('Key');
const value = z.string().max(5_000_000).describe('Value');

/** Structured result of the Web Storage list and get tools: the items, in the page's order. */
export const webStorageOutput = z.object({
  origin: z.string().optional(),
  items: z.array(z.object({ key: z.string(), value: z.string() })),
});
export type WebStorageOutput = z.infer<typeof webStorageOutput>;

/** The five Web Storage verbs of one area, as contracts. */
function webStorageTools<A extends 'localstorage' | 'sessionstorage'>(area: A, label: string) {
  return [
    defineTool({
      name: `browser_${area}_list`,
      title: `List ${label}`,
      description: `Every ${label} key and value of the current page's origin.`,
      input: z.object({}),
      output: webStorageOutput,
      annotations: READS,
      group: 'storage',
    }),
    defineTool({
      name: `browser_${area}_get`,
      title: `Get ${label} item`,
      description: `One ${label} item of the current page by key.`,
      input: z.object({ key }),
      output: webStorageOutput,
      annotations: READS,
      group: 'storage',
    }),
    defineTool({
      name: `browser_${area}_set`,
      title: `Set ${label} item`,
      description: `Sets a ${label} item of the current page.`,
      input: z.object({ key, value }),
      annotations: WRITES,
      group: 'storage',
      typedArgs: ['value'],
    }),
    defineTool({
      name: `browser_${area}_delete`,
      title: `Delete ${label} item`,
      description: `Removes a ${label} item of the current page.`,
      input: z.object({ key }),
      annotations: WRITES,
      group: 'storage',
    }),
    defineTool({
      name: `browser_${area}_clear`,
      title: `Clear ${label}`,
      description: `Removes every ${label} item of the current page's origin.`,
      input: z.object({}),
      annotations: WRITES,
      group: 'storage',
    }),
  ] as const;
}

export const localStorageTools = webStorageTools('localstorage', 'localStorage');
export const sessionStorageTools = webStorageTools('sessionstorage', 'sessionStorage');

/** One cookie of a storage state file (Playwright's storageState format). */
export const stateCookieSchema = z.object({
  name: z.string().max(4096),
  value: z.string().max(4096),
  domain: z.string().min(1).max(255),
  path: z.string().max(4096).optional(),
  /** Unix seconds; -1 or absent: a session cookie. */
  expires: z.number().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
});

/** Cookies and each origin's localStorage, as Playwright's `storageState()` writes them. */
export const storageStateSchema = z.object({
  cookies: z.array(stateCookieSchema).max(10_000).default([]),
  origins: z
    .array(
      z.object({
        origin: z.string().max(2048),
        localStorage: z
          .array(z.object({ name: z.string(), value: z.string() }))
          .max(100_000)
          .default([]),
      }),
    )
    .max(1000)
    .default([]),
});
export type StorageState = z.infer<typeof storageStateSchema>;

export const storageState = defineTool({
  name: 'browser_storage_state',
  title: 'Save storage state',
  description:
    "Saves the cookies and localStorage of the sites of this session's tabs to a JSON file (Playwright storageState format) in the output directory.",
  input: z.object({
    filename: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('File name (default storage-state-<time>.json); relative to the output directory'),
  }),
  annotations: { ...READS, idempotentHint: false },
  group: 'storage',
  serverStep: 'saveStorageState',
  // Its file is written by the server step, which a batch's steps do not run.
  allowedInBatch: false,
});

export const setStorageState = defineTool({
  name: 'browser_set_storage_state',
  title: 'Restore storage state',
  description:
    "Loads cookies and localStorage from a storage state file; first clears the cookies of this session's sites.",
  input: z.object({
    filename: z.string().min(1).max(4096).describe('The storage state file'),
    // Filled in by the MCP server from the file; an agent may pass the state itself instead.
    state: storageStateSchema.optional().describe('The state itself (instead of reading the file)'),
  }),
  annotations: { ...WRITES, idempotentHint: false },
  group: 'storage',
  serverStep: 'loadStorageState',
  allowedInBatch: false,
  timeoutMs: () => 60_000,
  typedArgs: ['state.cookies[].value', 'state.origins[].localStorage[].value'],
});

/** The storage area's tools, in the order tools/list shows them. */
export const storageContracts = [
  storage,
  ...localStorageTools,
  ...sessionStorageTools,
  storageState,
  setStorageState,
] as const;
