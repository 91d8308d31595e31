/**
 * No Docker runs in CI, so the container is kept honest this way: its install steps are the
 * script CI runs (scripts/bootstrap.sh → scripts/install.sh), and its entry point is the
 * command that script links.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string): string =>
  readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('docker/Dockerfile', () => {
  const dockerfile = read('docker/Dockerfile');

  it('installs with the script CI runs, and nothing else', () => {
    const runs = dockerfile.split('\n').filter((l) => /^RUN\b/.test(l));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toContain('bash scripts/install.sh --bin-dir /usr/local/bin');
    expect(read('scripts/bootstrap.sh')).toContain('exec bash scripts/install.sh');
    expect(read('scripts/test.sh')).toContain('bash scripts/bootstrap.sh');
  });

  it('starts the linked bridge in launch mode', () => {
    expect(dockerfile).toContain('ENTRYPOINT ["browser-agent-mcp", "--launch"]');
    expect(read('scripts/install.sh')).toContain('"$bin_dir/browser-agent-mcp"');
  });
});
