import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR, CHROME_PATH, WORKSPACE_DIR } from '../paths.js';

const run = promisify(execFile);

export interface MachineInfo {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  commit: string;
  packages: Array<{ name: string; version: string }>;
}

/** The machine, the date and every version a reader needs to reproduce the numbers. */
export async function machineInfo(): Promise<MachineInfo> {
  const chromium = await run(CHROME_PATH, ['--version'])
    .then(({ stdout }) => stdout.trim())
    .catch(() => 'unknown');
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    chromium: chromium.replace(/ built on .*/, ''),
    commit: await gitCommit(),
    packages: await Promise.all(
      [
        path.join(WORKSPACE_DIR, 'protocol'),
        path.join(WORKSPACE_DIR, 'mcp-server'),
        path.join(WORKSPACE_DIR, 'extension'),
        BENCH_DIR,
        path.join(BENCH_DIR, 'node_modules', '@modelcontextprotocol', 'sdk'),
        path.join(BENCH_DIR, 'node_modules', 'playwright-core'),
      ].map(packageVersion),
    ),
  };
}

async function packageVersion(dir: string): Promise<{ name: string; version: string }> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
      name?: unknown;
      version?: unknown;
    };
    return { name: String(manifest.name), version: String(manifest.version) };
  } catch {
    return { name: path.basename(dir), version: 'unknown' };
  }
}

async function gitCommit(): Promise<string> {
  try {
    const head = (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: WORKSPACE_DIR }))
      .stdout;
    const dirty = (await run('git', ['status', '--porcelain'], { cwd: WORKSPACE_DIR })).stdout;
    return `${head.trim()}${dirty.trim() === '' ? '' : ' + uncommitted changes'}`;
  } catch {
    return 'unknown';
  }
}
