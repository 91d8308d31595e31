import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputName, createOutputFile, defaultOutputDir, writeOutputFile } from './newFile.js';

const VICTIM = 'export PATH=/usr/bin\n';
let root: string;
let victim: string;
let savedHome: string | undefined;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'new-file-')));
  victim = path.join(root, 'bashrc');
  writeFileSync(victim, VICTIM);
  savedHome = process.env['BROWSER_AGENT_HOME'];
  process.env['BROWSER_AGENT_HOME'] = path.join(root, 'state');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env['BROWSER_AGENT_HOME'];
  else process.env['BROWSER_AGENT_HOME'] = savedHome;
  rmSync(root, { recursive: true, force: true });
});

function ownedDir(name = 'out'): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

describe('the output directory', () => {
  it('without one configured, is a private 0700 directory under the state directory', async () => {
    const file = await writeOutputFile(undefined, 'page.md', 'x', false);
    expect(file).toBe(path.join(defaultOutputDir(), 'page.md'));
    expect(defaultOutputDir()).toBe(path.join(root, 'state', 'output'));
    expect(lstatSync(defaultOutputDir()).mode & 0o777).toBe(0o700);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });

  it('is refused when others can write it, it is a link, or it is not a directory', async () => {
    const shared = ownedDir('shared');
    chmodSync(shared, 0o777);
    await expect(writeOutputFile(shared, 'a.md', 'x', false)).rejects.toThrow(
      /writable by others \(mode 777\)/,
    );
    const group = ownedDir('group');
    chmodSync(group, 0o770);
    await expect(checkOutputName(group, 'a.md')).rejects.toThrow(/writable by others/);
    const link = path.join(root, 'link');
    symlinkSync(ownedDir('real'), link);
    await expect(writeOutputFile(link, 'a.md', 'x', false)).rejects.toThrow(/is a symbolic link/);
    await expect(writeOutputFile(victim, 'a.md', 'x', false)).rejects.toThrow(/not a directory/);
    // A non-sticky directory above it that others can write: they could swap it.
    const open = ownedDir('open');
    chmodSync(open, 0o777);
    mkdirSync(path.join(open, 'out'), { mode: 0o700 });
    await expect(writeOutputFile(path.join(open, 'out'), 'a.md', 'x', false)).rejects.toThrow(
      /above .* writable by others and not sticky/,
    );
    expect(readdirSync(shared)).toEqual([]);
    expect(readdirSync(path.join(root, 'real'))).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('is refused when another user owns it', async () => {
    const theirs = ownedDir('theirs');
    chownSync(theirs, 65534, 65534);
    await expect(writeOutputFile(theirs, 'a.md', 'x', false)).rejects.toThrow(
      /belongs to uid 65534, not to you/,
    );
    expect(readdirSync(theirs)).toEqual([]);
  });
});

describe('a file name', () => {
  it('is refused when absolute outside the directory, going up, or hidden at any component', async () => {
    const out = ownedDir();
    mkdirSync(path.join(out, 'sub'));
    const refused: [string, RegExp][] = [
      [path.join(root, 'x.md'), /outside the output directory/],
      ['/etc/passwd', /outside the output directory/],
      ['../x.md', /outside the output directory/],
      ['sub/../../x.md', /outside the output directory/],
      ['.bashrc', /starts with a dot/],
      ['.ssh/authorized_keys', /starts with a dot/],
      ['sub/.profile', /starts with a dot/],
      ['', /empty/],
      ['a\0b', /empty/],
    ];
    for (const [name, why] of refused) {
      await expect(writeOutputFile(out, name, 'x', false), name).rejects.toThrow(why);
    }
    expect(readdirSync(out)).toEqual(['sub']);
    expect(readdirSync(path.join(out, 'sub'))).toEqual([]);
    // Inside the directory, absolute or nested names are fine; no directory is made.
    expect(await writeOutputFile(out, path.join(out, 'a.md'), 'x', false)).toBe(
      path.join(out, 'a.md'),
    );
    expect(await writeOutputFile(out, 'sub/b.md', 'x', false)).toBe(path.join(out, 'sub', 'b.md'));
    await expect(writeOutputFile(out, 'new/c.md', 'x', false)).rejects.toThrow(/does not exist/);
  });

  it('never goes through a link, at a directory or at the file itself', async () => {
    const out = ownedDir();
    const elsewhere = ownedDir('elsewhere');
    symlinkSync(elsewhere, path.join(out, 'linked'));
    symlinkSync(victim, path.join(out, 'final.md'));
    symlinkSync(path.join(root, 'missing'), path.join(out, 'dangling.md'));
    await expect(writeOutputFile(out, 'linked/x.md', 'x', false)).rejects.toThrow(
      /linked is a symbolic link/,
    );
    await expect(checkOutputName(out, 'linked/x.md')).rejects.toThrow(/symbolic link/);
    await expect(writeOutputFile(out, 'final.md', 'x', false)).rejects.toThrow(/exists/);
    await expect(writeOutputFile(out, 'dangling.md', 'x', false)).rejects.toThrow(/exists/);
    // Numbered: the link is skipped, never written through.
    expect(await writeOutputFile(out, 'final.md', 'x', true)).toBe(path.join(out, 'final-1.md'));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(() => lstatSync(path.join(root, 'missing'))).toThrow();
  });

  it('never replaces a file that is there', async () => {
    const out = ownedDir();
    writeFileSync(path.join(out, 'notes.md'), 'mine');
    await expect(writeOutputFile(out, 'notes.md', 'x', false)).rejects.toThrow(
      /a file of that name exists/,
    );
    expect(readFileSync(path.join(out, 'notes.md'), 'utf8')).toBe('mine');
  });
});

describe('a log file', () => {
  it('is appended through its handle: a link swapped in for it is never written through', async () => {
    const out = ownedDir();
    const { file, handle } = await createOutputFile(out, 'console.log', true);
    try {
      await handle.appendFile('one\n');
      renameSync(file, `${file}.old`);
      symlinkSync(victim, file);
      await handle.appendFile('two\n');
    } finally {
      await handle.close();
    }
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
    expect(readFileSync(`${file}.old`, 'utf8')).toBe('one\ntwo\n');
  });
});
