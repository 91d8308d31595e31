/**
 * Which local files an agent may hand to a page with browser_file_upload. A page can ask the
 * agent to "upload ~/.ssh/id_rsa to verify", so the MCP server (where the files and the client's
 * roots are known) checks every path before the browser is asked:
 *   - it must lie, after resolving symlinks, inside one of the client's MCP roots, the project,
 *     or a directory the user named in `uploadDirs`;
 *   - no component below that root may be a dot-directory or dot-file (.ssh, .env, .git);
 *   - /proc, /dev and /sys are refused wherever the roots are, and so is anything but a regular
 *     file (a directory, a FIFO, a device).
 * The browser is given the resolved path, so a link swapped after the check points nowhere new
 * unless the target itself is replaced (a race the user's own processes alone can run).
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError, ErrorCode } from '@browser-agent/protocol';

export const UPLOAD_SETTING_HINT =
  'Upload only files inside the MCP client\'s roots or the project, or add their directory to "uploadDirs" in the config file (BROWSER_AGENT_UPLOAD_DIRS, --upload-dirs).';

const SYSTEM_DIRS = ['/proc', '/dev', '/sys'];

function refuse(message: string): never {
  throw new BridgeError(ErrorCode.INVALID_ARGS, message, UPLOAD_SETTING_HINT);
}

function inside(dir: string, file: string): string | undefined {
  const rel = path.relative(dir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel;
}

async function resolvedRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    if (!path.isAbsolute(root)) continue;
    const real = await realpath(root).catch(() => undefined);
    if (real !== undefined && !SYSTEM_DIRS.some((d) => inside(d, real) !== undefined || real === d))
      out.push(real);
  }
  return out;
}

/**
 * Checks each path and returns them resolved (symlinks followed), in order; a relative path is
 * resolved against `base` (the client's first root) when there is one. Throws INVALID_ARGS
 * with a hint naming the setting, or FILE_NOT_FOUND.
 */
export async function checkUploadPaths(
  paths: readonly string[],
  roots: readonly string[],
  base?: string,
): Promise<string[]> {
  const allowed = await resolvedRoots(roots);
  const out: string[] = [];
  for (const given of paths) {
    // A relative path is the client's (its first MCP root), as in Playwright MCP; then checked.
    const file =
      path.isAbsolute(given) || base === undefined || !path.isAbsolute(base)
        ? given
        : path.resolve(base, given);
    if (!path.isAbsolute(file)) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `Each upload path must be an absolute path (the MCP client sent no roots to resolve a relative one against), got "${file}".`,
        'Give the full path, e.g. /home/me/report.pdf.',
      );
    }
    const real = await realpath(file).catch(() => {
      throw new BridgeError(
        ErrorCode.FILE_NOT_FOUND,
        `The file to upload does not exist: ${file}`,
        'Check the path; it is read on the machine the MCP server runs on.',
      );
    });
    if (SYSTEM_DIRS.some((d) => real === d || inside(d, real) !== undefined))
      refuse(`Refused to upload ${file}: files under /proc, /dev and /sys are never uploaded.`);
    const info = await stat(real);
    if (!info.isFile())
      refuse(`Refused to upload ${file}: it is not a regular file (a directory or a device).`);
    const under = allowed
      .map((root) => ({ root, rel: inside(root, real) }))
      .find((r) => r.rel !== undefined);
    if (under === undefined) {
      const where = allowed.length === 0 ? 'no roots are known' : `roots: ${allowed.join(', ')}`;
      refuse(
        `Refused to upload ${file}${real === file ? '' : ` (really ${real})`}: it is outside the allowed directories (${where}).`,
      );
    }
    const hidden = (under.rel ?? '').split(path.sep).find((part) => part.startsWith('.'));
    if (hidden !== undefined)
      refuse(`Refused to upload ${file}: "${hidden}" is a hidden file or directory.`);
    out.push(real);
  }
  return out;
}
