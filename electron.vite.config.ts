import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * One build for the three parts: the main process (the Electron shell, plus the `vigil` CLI that
 * shares its core), the sandboxed preload (one CommonJS file, dependencies bundled, because a
 * sandboxed preload cannot load other files), and the renderer.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          main: resolve('electron/main.ts'),
          cli: resolve('electron/cli/vigil.ts'),
          'hash-worker': resolve('electron/checkpoints/hash-worker.ts'),
        },
        output: {
          entryFileNames: '[name].js',
          banner: (chunk) => (chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
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
      rollupOptions: { input: resolve('renderer/index.html') },
    },
    plugins: [react()],
  },
});
