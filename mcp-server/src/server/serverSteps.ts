/**
 * Steps a few tools need on the MCP server's side of the bridge, where the file system and a
 * DOM library are: checking upload files exist before the browser is asked, saving a
 * screenshot, turning page HTML into Markdown. Keyed by tool name; most tools have none.
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError, ErrorCode, type ToolName, type ToolResult } from '@browser-agent/protocol';
import { PAGE_HTML_MARKER } from '@browser-agent/protocol';

interface ServerStep {
  /** Runs before the call is forwarded; throws to refuse it. */
  before?: (args: Record<string, unknown>) => Promise<void>;
  /** Rewrites the browser's result. */
  after?: (result: ToolResult, args: Record<string, unknown>) => Promise<ToolResult>;
}

function requireAbsolute(file: string, what: string): void {
  if (!path.isAbsolute(file)) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `${what} must be an absolute path, got "${file}".`,
      'Give the full path, e.g. /home/me/report.pdf.',
    );
  }
}

const fileUpload: ServerStep = {
  async before(args) {
    const paths = Array.isArray(args['paths']) ? args['paths'] : [];
    for (const file of paths) {
      if (typeof file !== 'string') continue;
      requireAbsolute(file, 'Each upload path');
      await access(file).catch(() => {
        throw new BridgeError(
          ErrorCode.FILE_NOT_FOUND,
          `The file to upload does not exist: ${file}`,
          'Check the path; it is read on the machine the MCP server runs on.',
        );
      });
    }
  },
};

const screenshot: ServerStep = {
  before(args) {
    const file = args['filename'];
    if (typeof file === 'string') requireAbsolute(file, 'filename');
    return Promise.resolve();
  },
  async after(result, args) {
    const file = args['filename'];
    const image = result.content.find((part) => part.type === 'image');
    if (typeof file !== 'string' || image === undefined) return result;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.from(image.data, 'base64'));
    return { content: [...result.content, { type: 'text', text: `Saved to ${file}` }] };
  },
};

const getText: ServerStep = {
  async after(result, args) {
    const maxChars = typeof args['maxChars'] === 'number' ? args['maxChars'] : undefined;
    // Loaded on first use: readability, turndown and linkedom add ~100 ms to every server start.
    const { htmlToMarkdown } = await import('./pageMarkdown.js');
    const content = result.content.map((part) =>
      part.type === 'text' && part.text.startsWith(PAGE_HTML_MARKER)
        ? { type: 'text' as const, text: htmlToMarkdown(part.text, maxChars) }
        : part,
    );
    return { content };
  },
};

const steps: Partial<Record<ToolName, ServerStep>> = {
  browser_file_upload: fileUpload,
  browser_take_screenshot: screenshot,
  browser_get_text: getText,
};

export function serverStepFor(name: ToolName): ServerStep | undefined {
  return steps[name];
}
