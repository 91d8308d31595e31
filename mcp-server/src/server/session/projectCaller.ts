import type { ToolResult } from '@browser-agent/protocol';
import type { ToolCaller } from '../response/toolResponse.js';
import type { ProjectSession } from './projectSession.js';

/**
 * Takes `projectPath` out of every call (the extension never sees it), lets the project session
 * act on it before the browser is reached, and adds the session's notes to the call's response.
 */
export function projectAwareCaller(project: ProjectSession, inner: ToolCaller): ToolCaller {
  return {
    async call(action, params, timeoutMs, response, options): Promise<ToolResult> {
      const { projectPath, ...rest } = isRecord(params) ? params : {};
      const notes = await project.beforeCall(
        typeof projectPath === 'string' ? projectPath : undefined,
      );
      let result: ToolResult;
      try {
        result = await inner.call(action, rest, timeoutMs, response, options);
      } catch (err) {
        project.unsent(notes);
        throw err;
      }
      for (const text of notes) response.addNote(text);
      return result;
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
