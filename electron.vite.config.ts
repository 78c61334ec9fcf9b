import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
// eslint-disable-next-line vigil/public-face -- runs in plain Node, outside the build's face rewrite: the shell's face would load Electron, so this takes the CSP from its own module
import { rendererMetaContentSecurityPolicy } from './electron/shell/content-security-policy';
import { chunkGroups } from './scripts/build/chunk-plan';
import { collapseFacadesPlugin } from './scripts/build/collapse-facades';
import { faceImports } from './scripts/build/face-imports';
import { relayEntryPlugin } from './scripts/build/relay-entry';

/**
 * Writes the renderer's Content-Security-Policy into the built page as a meta tag: a second layer
 * under the CSP header each transport sends (docs/security.md, item 7). Build only: the dev
 * server's hot reload needs inline scripts.
 */
const contentSecurityPolicyMeta: Plugin = {
  name: 'vigil-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: rendererMetaContentSecurityPolicy },
      injectTo: 'head-prepend',
    },
  ],
};

const mainEntries = {
  main: resolve('electron/main.ts'),
  cli: resolve('electron/cli/vigil.ts'),
  'hash-worker': resolve('electron/checkpoints/snapshot/hash-worker.ts'),
  'spawn-server': resolve('electron/sandbox/spawn-server.ts'),
  // An entry of its own (its name and exports kept) so that the relay entry, cli.cjs, can load it when no core takes a call.
  'local-core': resolve('electron/cli/relay/local-core.ts'),
};

/**
 * One build for the three parts: the main process (the Electron shell, plus the `vigil` CLI that
 * shares its core), the sandboxed preload (one CommonJS file, dependencies bundled, because a
 * sandboxed preload cannot load other files), and the renderer.
 */
export default defineConfig({
  main: {
    // An import through a folder's face becomes an import of the modules that define its names, so
    // that a light chunk (the hashing worker's) holds only what it uses (scripts/build/face-imports.ts).
    // A dynamically imported module in a planned chunk is imported from that chunk, not through a
    // one-line facade file of its own (scripts/build/collapse-facades.ts).
    // The relay entry, cli.cjs (package.json's bin), is bundled once this build is written (scripts/build/relay-entry.ts).
    plugins: [
      faceImports(resolve('electron')),
      collapseFacadesPlugin(),
      relayEntryPlugin({
        root: resolve('.'),
        entry: resolve('electron/cli/relay-entry.ts'),
        handOffs: { executable: mainEntries.cli, localCore: mainEntries['local-core'] },
      }),
    ],
    build: {
      outDir: 'out/main',
      // zod and diff ship as hundreds of small ES modules (zod's every locale among them): bundled, a
      // one-shot `vigil` command resolves and compiles a few chunks instead of ~300 files. `ignore` is one
      // CommonJS file: imported from an ES chunk, Node would run its CommonJS export scan in every walk
      // thread (~10 ms of CPU per one-shot checkpoint; docs/benchmarks/cli-notes.md, session 11).
      externalizeDeps: { exclude: ['zod', 'diff', 'ignore'] },
      rollupOptions: {
        input: mainEntries,
        // A folder's public face (its index.ts) only re-exports and defines loaders: a module that takes
        // one export from it must not load all it re-exports (`vigil checkpoint`'s walk head start
        // would load the core's chunk before it knows it needs it).
        treeshake: { moduleSideEffects: [{ test: /electron[\\/](?:[^\\/]+[\\/])+index\.ts$/, sideEffects: false }] },
        output: {
          // A relayed command loads ~6 files, a hook 4, a one-shot core ~20 (scripts/build/chunk-plan.ts says why).
          codeSplitting: {
            groups: chunkGroups({
              cli: mainEntries.cli,
              commands: resolve('electron/cli/cli-main.ts'),
              hook: resolve('electron/cli/hook/hook-main.ts'),
              core: resolve('electron/core/index.ts'),
              worker: mainEntries['hash-worker'],
              headStart: resolve('electron/checkpoints/snapshot/walk-head-start.ts'),
              walkWorker: resolve('electron/checkpoints/snapshot/hash-worker-thread.ts'),
              spawnServer: mainEntries['spawn-server'],
              engine: resolve('electron/checkpoints/checkpoint-service.ts'),
            }),
          },
          entryFileNames: '[name].js',
          banner: (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { preload: resolve('electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified by default; a minified bundle loads faster in both apps.
      minify: true,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
    plugins: [react(), contentSecurityPolicyMeta],
  },
});
