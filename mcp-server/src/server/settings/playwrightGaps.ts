/**
 * Playwright MCP's flags and config keys that have no counterpart here, and why: the "no" rows of
 * docs/migration-playwright-mcp.md. Their names that do have one are the `theirs` field of the
 * entry in options/ that serves them.
 */
export interface Gap {
  names: readonly string[];
  note: string;
}

export const FLAG_GAPS: readonly Gap[] = [
  {
    names: ['--extension'],
    note: "no flag needed: the extension in the user's Chrome is the default; `--launch` starts one",
  },
  { names: ['--browser'], note: 'Chromium and Chrome only' },
  {
    names: ['--cdp-endpoint', '--endpoint'],
    note: 'the browser is reached through the extension, not a CDP or Playwright endpoint',
  },
  { names: ['--ignore-https-errors'], note: '' },
  { names: ['--init-page'], note: 'runs Playwright code in the server process' },
  { names: ['--block-service-workers'], note: '' },
  {
    names: ['--snapshot-mode', '--snapshot-boxes'],
    note: 'snapshots are budgeted and diffed on their own (`maxChars`); `boxes: true` per snapshot',
  },
  { names: ['--test-id-attribute'], note: 'use `selector: "[data-testid=…]"`' },
  { names: ['--timeout-settle'], note: 'actions settle on their own (bounded)' },
  { names: ['--codegen'], note: '' },
];

export const KEY_GAPS: readonly Gap[] = [
  { names: ['browser.isolated'], note: 'a flag here: `--isolated`' },
  { names: ['browser.userDataDir'], note: 'a flag here: `--user-data-dir`' },
  { names: ['server.port', 'server.host'], note: 'flags here: `--port`, `--host`' },
  { names: ['capabilities'], note: 'a flag here: `--caps`' },
];
