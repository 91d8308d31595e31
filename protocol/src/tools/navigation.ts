import { z } from 'zod';
import { defineTool } from './contract.js';

export const navigate = defineTool({
  name: 'browser_navigate',
  title: 'Navigate to a URL',
  description:
    "Navigate the session's current tab to a URL (opens the session's first tab if it has none) and wait for the page to load.",
  input: z.object({
    url: z.string().min(1).max(8192).describe('Absolute URL, e.g. http://127.0.0.1:3000/'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const navigateBack = defineTool({
  name: 'browser_navigate_back',
  title: 'Go back',
  description: "Go back to the previous page in the session's current tab.",
  input: z.object({}),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const navigateForward = defineTool({
  name: 'browser_navigate_forward',
  title: 'Go forward',
  description: "Go forward to the next page in the session's current tab.",
  input: z.object({}),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const reload = defineTool({
  name: 'browser_reload',
  title: 'Reload',
  description: 'Reload the current tab and wait for the page to load.',
  input: z.object({
    ignoreCache: z.boolean().optional().describe('Bypass the cache'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const resize = defineTool({
  name: 'browser_resize',
  title: 'Resize viewport',
  description: "Resize the current tab's viewport (CSS px).",
  input: z.object({
    width: z.number().int().min(100).max(8000).describe('Width'),
    height: z.number().int().min(100).max(8000).describe('Height'),
  }),
  annotations: { idempotentHint: true },
});

export const close = defineTool({
  name: 'browser_close',
  title: 'Close browser tabs',
  description: "Close every tab of this session (the user's own tabs stay open).",
  input: z.object({}),
  annotations: { destructiveHint: true },
});
