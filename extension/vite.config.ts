import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import manifest from './manifest.config.ts';
import { buildIdentity } from '../scripts/buildIdentity.mjs';

export default defineConfig({
  plugins: [
    crx({
      manifest,
      // Self-contained IIFEs: a shared chunk would make crxjs load them with an async import,
      // too late for document_start, and a main-world script cannot import extension files.
      // The overlay too: crxjs's loader imported its module as a web-accessible file, which let
      // any page detect the extension by fetching it (the id is fixed by the manifest's key) and
      // added that fetch to every page (security.md, benchmarks.md "Session 27"). e2e
      // hostile-pages.spec.ts checks that no file of the build is fetchable.
      contentScripts: {
        standaloneFiles: [
          'src/content/overlay.ts',
          'src/content/submitGuard.ts',
          'src/content/submitHook.ts',
        ],
      },
    }),
  ],
  // The build identity the daemon compares with its own (src/shared/buildId.ts).
  define: { __BROWSER_AGENT_BUILD__: JSON.stringify(buildIdentity('..')) },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'chrome116' },
  // The relay page is opened directly (launch mode, tests), so it is an input of its own too.
  server: { strictPort: true },
});
