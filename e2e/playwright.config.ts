import { defineConfig } from '@playwright/test';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

export default defineConfig({
  testDir: './specs',
  globalSetup: './globalSetup.ts',
  // Every test starts its own Chromium, MCP server and daemon; one at a time suits a 2-core box.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  use: { launchOptions: { executablePath: CHROME_PATH } },
});
