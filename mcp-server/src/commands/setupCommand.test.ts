import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientConfig, PACKAGE_NAME, SERVER_KEY, type Place } from './clientConfigs.js';
import { runSetupCommand } from './setupCommand.js';
import { packageDir } from '../shared/packageDir.js';

let home: string;
let place: Place;
let out: string;
let err: string;
const io = {
  out: (t: string) => {
    out += t;
  },
  err: (t: string) => {
    err += t;
  },
};
const at = () => new Date('2026-01-02T03:04:05.678Z');

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'ba-setup-'));
  place = { home, platform: 'linux', env: {} };
  out = '';
  err = '';
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

describe('setup <client>', () => {
  it('writes this installed copy (node + its bin) by default, and says so (#28)', () => {
    expect(runSetupCommand(['cursor'], io, place, at)).toBe(0);
    const file = path.join(home, '.cursor', 'mcp.json');
    const bin = path.join(packageDir(), 'bin', 'browser-agent-mcp.js');
    expect(readJson(file)).toEqual({
      mcpServers: { [SERVER_KEY]: { command: process.execPath, args: [bin, '--launch'] } },
    });
    expect(out).toContain(`Added "${SERVER_KEY}" in ${file}`);
    expect(out).toContain(`It runs this installed copy (${process.execPath} ${bin})`);
  });

  it('creates Cursor config with a launch-mode npx entry with --registry', () => {
    expect(runSetupCommand(['cursor', '--registry'], io, place, at)).toBe(0);
    const file = path.join(home, '.cursor', 'mcp.json');
    expect(readJson(file)).toEqual({
      mcpServers: { [SERVER_KEY]: { command: 'npx', args: ['-y', PACKAGE_NAME, '--launch'] } },
    });
    expect(out).toContain("It runs the npm registry's package");
    expect(runSetupCommand(['cursor', '--registry', '--local'], io, place, at)).toBe(2);
    expect(err).toContain('pick one');
  });

  it('merges into Claude Desktop config, keeping other servers and settings, with a backup', () => {
    const file = clientConfig('claude-desktop', place).file;
    expect(file).toBe(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    mkdirSync(path.dirname(file), { recursive: true });
    const before = {
      globalShortcut: 'Ctrl+Space',
      mcpServers: { other: { command: 'other-mcp', args: [] } },
    };
    writeFileSync(file, JSON.stringify(before));
    expect(runSetupCommand(['claude-desktop', '--own-chrome', '--registry'], io, place, at)).toBe(
      0,
    );
    const after = readJson(file);
    expect(after['globalShortcut']).toBe('Ctrl+Space');
    expect(after['mcpServers']).toEqual({
      other: { command: 'other-mcp', args: [] },
      [SERVER_KEY]: { command: 'npx', args: ['-y', PACKAGE_NAME] },
    });
    const backups = readdirSync(path.dirname(file)).filter((f) => f.endsWith('.bak'));
    expect(backups).toEqual(['claude_desktop_config.json.2026-01-02T03-04-05-678Z.bak']);
    expect(
      JSON.parse(readFileSync(path.join(path.dirname(file), backups[0] ?? ''), 'utf8')),
    ).toEqual(before);
    expect(out).toContain('kept other');
  });

  it('replaces its own earlier entry instead of adding a second one (Claude Code, user scope)', () => {
    const file = path.join(home, '.claude.json');
    writeFileSync(
      file,
      JSON.stringify({ numStartups: 3, mcpServers: { [SERVER_KEY]: { command: 'old' } } }),
    );
    expect(
      runSetupCommand(['claude-code', '--project', '/tmp/proj', '--registry'], io, place, at),
    ).toBe(0);
    const after = readJson(file);
    expect(after['numStartups']).toBe(3);
    expect(after['mcpServers']).toEqual({
      [SERVER_KEY]: {
        command: 'npx',
        args: ['-y', PACKAGE_NAME, '--launch', '--project', '/tmp/proj'],
      },
    });
    expect(out).toContain('Updated');
  });

  it('writes VS Code entries under "servers" with type stdio', () => {
    expect(runSetupCommand(['vscode', '--registry'], io, place, at)).toBe(0);
    const file = path.join(home, '.config', 'Code', 'User', 'mcp.json');
    expect(readJson(file)).toEqual({
      servers: {
        [SERVER_KEY]: { type: 'stdio', command: 'npx', args: ['-y', PACKAGE_NAME, '--launch'] },
      },
    });
  });

  it('uses the platform locations on macOS and Windows', () => {
    expect(
      clientConfig('claude-desktop', { home: '/Users/u', platform: 'darwin', env: {} }).file,
    ).toBe(
      path.join(
        '/Users/u',
        'Library',
        'Application Support',
        'Claude',
        'claude_desktop_config.json',
      ),
    );
    expect(
      clientConfig('vscode', {
        home: 'C:/Users/u',
        platform: 'win32',
        env: { APPDATA: 'C:/AppData' },
      }).file,
    ).toBe(path.join('C:/AppData', 'Code', 'User', 'mcp.json'));
  });

  it('--print prints the snippet and writes nothing', () => {
    expect(runSetupCommand(['cursor', '--print', '--registry'], io, place, at)).toBe(0);
    expect(JSON.parse(out)).toEqual({
      mcpServers: { [SERVER_KEY]: { command: 'npx', args: ['-y', PACKAGE_NAME, '--launch'] } },
    });
    expect(existsSync(path.join(home, '.cursor'))).toBe(false);
  });

  it('leaves a config that is not plain JSON alone and says what to do', () => {
    const file = path.join(home, '.cursor', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ // a comment\n "mcpServers": {} }');
    expect(runSetupCommand(['cursor'], io, place, at)).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('{ // a comment\n "mcpServers": {} }');
    expect(err).toContain('--print');
    expect(readdirSync(path.dirname(file))).toEqual(['mcp.json']);
  });

  it('refuses an unknown client with the list of known ones', () => {
    expect(runSetupCommand(['emacs'], io, place, at)).toBe(2);
    expect(err).toContain('claude-desktop, claude-code, cursor, vscode');
  });
});
