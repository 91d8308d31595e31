/**
 * The server and the daemon are each bundled with their dependencies into a few ES modules.
 * Node spends most of a spawn resolving and compiling files: about 350 of them (zod, the MCP SDK,
 * ajv) cost well over 100 ms before the first MCP message could be answered; one file costs a
 * fraction. Code loaded by dynamic import() (the HTTP transport, page-to-markdown, the
 * in-process daemon) stays in chunks of its own, loaded only when used.
 */
import { defineConfig } from 'rolldown';
import { withoutAjv } from './build/withoutAjv.js';
import { buildIdentity } from '../scripts/buildIdentity.mjs';

export default defineConfig({
  input: {
    cli: 'src/cli.ts',
    // Spawned as its own process by the server (daemonClient.ts), so an entry of its own.
    'daemon/main': 'src/daemon/main.ts',
    // Spawned by an isolated session's daemon (isolated/isolatedContext.ts): the shared browser.
    'daemon/isolatedHost': 'src/daemon/isolated/hostMain.ts',
    // The one writer of pairings.json, also used by the e2e harness and the bench (package export).
    pairingStore: 'src/daemon/link/pairingStore.ts',
    // The memory probe's switch, file and line format, which the bench's soak reads (package export).
    memoryProbe: 'src/daemon/memoryProbe.ts',
    // The Chromium flags of launch mode, which the e2e harness and the bench start theirs with (package export).
    chromiumFlags: 'src/daemon/launch/chromiumFlags.ts',
    // The CDP pipe client, which the bench's soak browser talks to its Chromium through (package export).
    cdpPipe: 'src/daemon/launch/cdpPipe.ts',
  },
  platform: 'node',
  plugins: [withoutAjv()],
  // bufferutil loads its native addon from its own directory (node-gyp-build(__dirname)); bundled,
  // it would silently fall back to unmasking frames in JS, ~12 ms per screenshot in the lite-mode
  // daemon. Left external, ws requires it from node_modules as before.
  external: ['bufferutil'],
  // Sources import './x.js' for './x.ts', as NodeNext wants.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  // The build identity the handshakes compare (shared/buildId.ts).
  transform: {
    target: 'node20',
    define: { __BROWSER_AGENT_BUILD__: JSON.stringify(buildIdentity('..')) },
  },
  output: {
    dir: 'dist',
    format: 'esm',
    sourcemap: true,
    cleanDir: true,
    chunkFileNames: 'chunks/[name]-[hash].js',
    // What the daemon's entry loads before it takes its start lock and starts the browser ahead
    // (daemon/main.ts, launch/prelaunch.ts): a chunk of its own. Left to the automatic split,
    // these modules shared the server's and the daemon's 330 KB chunk (zod, the protocol), which
    // would load first and leave nothing to overlap with the browser's start.
    codeSplitting: {
      groups: [
        {
          name: 'daemonBoot',
          test: /src[\\/](shared[\\/](logger|paths|socketAnswers|pidAlive|profiles|packageDir|prelaunchEnv)|daemon[\\/](startLock|statusFile|launch[\\/](prelaunch|browserSpawn|browserHandover|workerCache)))\.ts$|protocol[\\/]dist[\\/]constants\.js$/,
        },
      ],
    },
  },
});
