/** Navigation area: go to a URL, back, forward, reload, resize the viewport, close the tabs. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

export const navigate = defineTool({
  name: 'browser_navigate',
  askVerb: 'open',
  title: 'Navigate to a URL',
  description: 'Open a URL in the current tab (or a first tab) and wait for it to load.',
  input: z.object({
    url: z.string().min(1).max(8192).describe('Absolute URL'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutKind: 'navigation',
  takesProjectPath: true,
});

export const navigateBack = defineTool({
  name: 'browser_navigate_back',
  askVerb: 'go back',
  title: 'Go back',
  description: 'Go back in the current tab.',
  input: z.object({}),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutKind: 'navigation',
});

export const navigateForward = defineTool({
  name: 'browser_navigate_forward',
  askVerb: 'go forward',
  title: 'Go forward',
  description: 'Go forward in the current tab.',
  input: z.object({}),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutKind: 'navigation',
});

export const reload = defineTool({
  name: 'browser_reload',
  askVerb: 'reload',
  title: 'Reload',
  description: 'Reload the current tab.',
  input: z.object({
    ignoreCache: z.boolean().optional().describe('Bypass the cache'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutKind: 'navigation',
});

export const resize = defineTool({
  name: 'browser_resize',
  title: 'Resize viewport',
  description: "Resize the current tab's viewport (CSS px).",
  input: z.object({
    width: z.number().min(100).max(8000).describe('Width'),
    height: z.number().min(100).max(8000).describe('Height'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'devtools',
  takesProjectPath: true,
});

export const close = defineTool({
  name: 'browser_close',
  title: 'Close browser tabs',
  description: "Close every tab of this session (the user's own tabs stay open).",
  input: z.object({}),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  takesProjectPath: true,
  reportsModalState: false,
});

/** The navigation area's tools, in the order tools/list shows them. */
export const navigationContracts = [
  navigate,
  navigateBack,
  navigateForward,
  reload,
  resize,
  close,
] as const;
