import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUploadPaths } from './uploadRoots.js';

describe('checkUploadPaths', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'ba-uploads-'));
    root = path.join(base, 'project');
    outside = path.join(base, 'home');
    await mkdir(path.join(root, 'docs'), { recursive: true });
    await mkdir(path.join(root, '.secrets'));
    await mkdir(path.join(outside, '.ssh'), { recursive: true });
    await writeFile(path.join(root, 'docs', 'cv.pdf'), 'cv');
    await writeFile(path.join(root, '.env'), 'TOKEN=1');
    await writeFile(path.join(root, '.secrets', 'key'), 'k');
    await writeFile(path.join(outside, '.ssh', 'id_rsa'), 'PRIVATE');
    await writeFile(path.join(outside, 'notes.txt'), 'n');
    await symlink(path.join(outside, '.ssh', 'id_rsa'), path.join(root, 'docs', 'innocent.pdf'));
    await symlink(path.join(outside, '.ssh'), path.join(root, 'docs', 'keys'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('accepts files inside a root and returns them resolved', async () => {
    const file = path.join(root, 'docs', 'cv.pdf');
    expect(await checkUploadPaths([file], [root])).toEqual([file]);
  });

  it('refuses files outside every root, naming the setting', async () => {
    const file = path.join(outside, 'notes.txt');
    const refused: unknown = await checkUploadPaths([file], [root]).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INVALID_ARGS' });
    expect((refused as { hint?: string }).hint).toContain('uploadDirs');
    await expect(checkUploadPaths([file], [])).rejects.toThrow(/no roots are known/);
    expect(await checkUploadPaths([file], [root, outside])).toEqual([file]);
  });

  it('follows symlinks before judging: a link inside the root to ~/.ssh is refused', async () => {
    await expect(
      checkUploadPaths([path.join(root, 'docs', 'innocent.pdf')], [root]),
    ).rejects.toThrow(/outside the allowed directories/);
    await expect(
      checkUploadPaths([path.join(root, 'docs', 'keys', 'id_rsa')], [root]),
    ).rejects.toThrow(/outside the allowed directories/);
    // Even with the home directory as a root, the dot-directory is refused.
    await expect(
      checkUploadPaths([path.join(root, 'docs', 'innocent.pdf')], [outside]),
    ).rejects.toThrow(/".ssh" is a hidden/);
  });

  it('refuses dot-files, dot-directories, directories and system files', async () => {
    await expect(checkUploadPaths([path.join(root, '.env')], [root])).rejects.toThrow(/hidden/);
    await expect(checkUploadPaths([path.join(root, '.secrets', 'key')], [root])).rejects.toThrow(
      /hidden/,
    );
    await expect(checkUploadPaths([path.join(root, 'docs')], [root])).rejects.toThrow(
      /not a regular file/,
    );
    await expect(checkUploadPaths(['/proc/self/environ'], ['/'])).rejects.toThrow(/\/proc/);
    await expect(checkUploadPaths(['/dev/null'], ['/'])).rejects.toThrow(/\/dev/);
  });

  it('refuses relative and missing paths with their own errors', async () => {
    await expect(checkUploadPaths(['cv.pdf'], [root])).rejects.toMatchObject({
      code: 'INVALID_ARGS',
    });
    await expect(checkUploadPaths([path.join(root, 'missing.pdf')], [root])).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
  });

  it('resolves a relative path against the client root, then checks it as any other', async () => {
    expect(await checkUploadPaths(['docs/cv.pdf'], [root], root)).toEqual([
      path.join(root, 'docs', 'cv.pdf'),
    ]);
    await expect(checkUploadPaths(['../home/notes.txt'], [root], root)).rejects.toThrow(
      /outside the allowed directories/,
    );
    await expect(checkUploadPaths(['.env'], [root], root)).rejects.toThrow(/hidden/);
    await expect(checkUploadPaths(['docs/innocent.pdf'], [root], root)).rejects.toThrow(
      /outside the allowed directories/,
    );
  });
});
