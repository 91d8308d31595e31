/**
 * The structured results (MCP outputSchema / structuredContent) of the tools that return data,
 * for clients that read fields rather than text. Each is the `output` of its tool's contract;
 * the text beside it says the same for models. Kept small: what a program would branch on.
 */
import { z } from 'zod';

export const tabsOutput = z.object({
  tabs: z.array(
    z.object({
      index: z.number(),
      tabId: z.number(),
      url: z.string(),
      title: z.string(),
      current: z.boolean(),
    }),
  ),
});

export const evaluateOutput = z.object({
  /** The JavaScript type of the result (typeof, or "null"). */
  type: z.string(),
  /** The JSON value; absent for undefined, functions, symbols, or one too large to repeat here. */
  value: z.unknown().optional(),
  truncated: z.boolean(),
});

export const consoleOutput = z.object({
  messages: z.array(
    z.object({
      level: z.string(),
      text: z.string(),
      location: z.string().optional(),
      timestamp: z.number(),
    }),
  ),
});

export const networkRequestsOutput = z.object({
  requests: z.array(
    z.object({
      id: z.string(),
      method: z.string(),
      url: z.string(),
      /** HTTP status; absent while pending or when the request failed. */
      status: z.number().optional(),
      resourceType: z.string(),
      failure: z.string().optional(),
    }),
  ),
  /** Matching requests left out (the oldest). */
  omitted: z.number(),
});

export const findOutput = z.object({
  generation: z.number(),
  total: z.number(),
  matches: z.array(z.object({ line: z.string(), path: z.array(z.string()) })),
});

export const sessionInfoOutput = z.object({
  sessionId: z.string(),
  client: z.string(),
  tabs: z.array(z.object({ index: z.number(), url: z.string(), current: z.boolean() })),
  transactionOpen: z.boolean(),
  checkpoints: z.number(),
  commits: z.number(),
  rollbacks: z.number(),
});

export type TabsOutput = z.infer<typeof tabsOutput>;
export type EvaluateOutput = z.infer<typeof evaluateOutput>;
export type ConsoleOutput = z.infer<typeof consoleOutput>;
export type NetworkRequestsOutput = z.infer<typeof networkRequestsOutput>;
export type FindOutput = z.infer<typeof findOutput>;
export type SessionInfoOutput = z.infer<typeof sessionInfoOutput>;
