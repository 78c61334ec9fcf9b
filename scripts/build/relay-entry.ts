import path from 'node:path';
import { build, type Plugin } from 'vite';
import { faceImports } from './face-imports';

/** The file the plugin writes beside the ES build's `cli.js`: package.json's `bin`, and what agents' hooks run. */
export const relayEntryFile = 'cli.cjs';

/** How an import of an ES entry is marked until each chunk's code is written. */
const handOffPrefix = 'vigil-es-build:';

/** Where the relay entry goes on in the ES build: each source module, by the entry file (in out/main) that exports it. */
export interface RelayEntryHandOffs {
  /** The ES executable (electron/cli/vigil.ts → cli.js), for every command the relay entry does not run itself. */
  readonly executable: string;
  /** The one-shot core's loader (electron/cli/relay/local-core.ts → local-core.js), for a call no core takes. */
  readonly localCore: string;
}

/**
 * Bundles the relay entry (electron/cli/relay-entry.ts) into one CommonJS file, `cli.cjs`, once the
 * ES build is written beside it: a relayed checkpoint or hook call then loads one file, read at
 * once, and starts no thread pool (Node's ES loader reads each module through it). Its two ways
 * into the ES build stay dynamic imports of the ES build's own entries, so a process that goes on
 * there (another command, or a call no core takes) uses that build's modules, not copies.
 */
export function relayEntryPlugin(options: {
  readonly root: string;
  readonly entry: string;
  readonly handOffs: RelayEntryHandOffs;
}): Plugin {
  const external = new Map([
    [options.handOffs.executable, 'cli.js'],
    [options.handOffs.localCore, 'local-core.js'],
  ]);
  const handOffs: Plugin = {
    name: 'vigil-relay-entry-hand-offs',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (importer === undefined) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      const target = resolved === null ? undefined : external.get(resolved.id);
      return target === undefined ? null : { id: `${handOffPrefix}${target}`, external: true };
    },
    // Each import of an ES entry, written relative to the chunk that makes it (the entry in out/main, a chunk in chunks/).
    renderChunk(code, chunk) {
      return code.replaceAll(new RegExp(`"${handOffPrefix}([\\w.-]+)"`, 'g'), (_, name: string) => {
        const relative = path.posix.relative(path.posix.dirname(chunk.fileName), name);
        return JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`);
      });
    },
  };
  return {
    name: 'vigil-relay-entry',
    apply: 'build',
    async writeBundle(output) {
      const outDir = output.dir ?? path.join(options.root, 'out/main');
      await build({
        configFile: false,
        root: options.root,
        logLevel: 'warn',
        plugins: [handOffs, faceImports(path.join(options.root, 'electron'))],
        build: {
          ssr: options.entry,
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          minify: false,
          target: 'node20',
          rollupOptions: {
            treeshake: {
              moduleSideEffects: [{ test: /electron[\\/](?:[^\\/]+[\\/])+index\.ts$/, sideEffects: false }],
            },
            output: {
              format: 'cjs',
              entryFileNames: relayEntryFile,
              chunkFileNames: 'chunks/[name]-[hash].cjs',
              banner: '#!/usr/bin/env node',
            },
          },
        },
      });
    },
  };
}
