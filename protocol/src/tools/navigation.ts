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
