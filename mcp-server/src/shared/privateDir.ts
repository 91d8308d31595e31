/**
 * Whether a directory is safe to write the user's files in: one that no other OS user can
 * swap, read into or plant links in. Used for the output directory (the server's files) and
 * the launched browser's download folder.
 */
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';

const STICKY = 0o1000;

function ownProblem(dir: string, st: Stats, uid: number): string | undefined {
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid) {
    return `${dir} belongs to uid ${st.uid}, not to you (uid ${uid}): its owner could read the files or swap them for links`;
  }
  if ((st.mode & 0o022) !== 0) {
    return `${dir} is writable by others (mode ${(st.mode & 0o777).toString(8)}): another user could swap the files in it for links`;
  }
  return undefined;
}

/**
 * Why `dir` may not hold the user's files, or undefined when it may: it must be a real
 * directory (not a link), owned by this user and not writable by group or others, and every
 * directory above it must be owned by this user or root and, when others may write it, sticky
 * (as /tmp is), so nobody else can move it away and put their own in its place.
 */
export function privateDirProblem(dir: string): string | undefined {
  const uid = process.getuid?.();
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (err) {
    return `${dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (uid === undefined) return st.isDirectory() ? undefined : `${dir} is not a directory`;
  const own = ownProblem(dir, st, uid);
  if (own !== undefined) return own;
  // The user's own choice of path may go through links above the directory (/var on macOS);
  // what matters is who can change the directories it really lives in.
  let above = realpathSync(path.dirname(dir));
  for (;;) {
    const info = lstatSync(above);
    if (info.uid !== uid && info.uid !== 0) {
      return `${above}, above ${dir}, belongs to uid ${info.uid}: its owner could replace ${dir}`;
    }
    if ((info.mode & 0o022) !== 0 && (info.mode & STICKY) === 0) {
      return `${above}, above ${dir}, is writable by others and not sticky: another user could replace ${dir}`;
    }
    const parent = path.dirname(above);
    if (parent === above) return undefined;
    above = parent;
  }
}

/** Makes `dir` (0700) when it is missing, then returns why it may not be used, if it may not. */
export function ensurePrivateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // EEXIST: a file or a dangling link is in the way; the check below says which.
    if (code !== 'EEXIST') return `${dir} cannot be made (${code ?? String(err)})`;
  }
  return privateDirProblem(dir);
}
