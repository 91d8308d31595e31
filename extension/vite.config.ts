import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import manifest from './manifest.config.ts';

export default defineConfig({
  plugins: [crx({ manifest })],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'chrome116' },
  // The relay page is opened directly (launch mode, tests), so it is an input of its own too.
  server: { strictPort: true },
});
