import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { faceImports } from './face-imports';

/** A source tree with one face: `store/` re-exports a light module, a module with a top-level effect, and a loader. */
const sources: Record<string, string> = {
  'store/modes.ts': "export const fileModes = { blob: '100644' } as const;\n",
  'store/inflate.ts': [
    "import { promisify } from 'node:util';",
    "import { inflate } from 'node:zlib';",
    'const inflateAsync = promisify(inflate);',
    "export class Packs { read(bytes: Uint8Array) { return inflateAsync(bytes); } marker = 'PACKS-MODULE'; }",
  ].join('\n'),
  'store/index.ts': [
    "export { fileModes as modes } from './modes';",
    "export type { Packs as PackType } from './inflate';",
    "export { Packs } from './inflate';",
    "export const loadPacks = () => import('./inflate');",
    "export const storeToken = Symbol('STORE-OWN');",
  ].join('\n'),
  'worker/entry.ts': [
    "import { modes, loadPacks, storeToken, type PackType } from '../store';",
    'export const token = storeToken;',
    'export const mode: string = modes.blob;',
    'export const packs = (): Promise<{ Packs: new () => PackType }> => loadPacks();',
  ].join('\n'),
  'core/entry.ts': [
    "import { Packs } from '../store';",
    'export const packs = new Packs();',
    "export const token = () => import('../store').then((store) => store.storeToken);",
  ].join('\n'),
};

/** Bundles the tree's two entries as the main build does (ES modules, node built-ins external), with or without the rewrite. */
async function bundle(root: string, rewrite: boolean): Promise<Rolldown.OutputChunk[]> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    plugins: rewrite ? [faceImports(path.join(root, 'src'))] : [],
    build: {
      write: false,
      ssr: true,
      minify: false,
      rollupOptions: {
        input: { worker: path.join(root, 'src/worker/entry.ts'), core: path.join(root, 'src/core/entry.ts') },
        treeshake: { moduleSideEffects: [{ test: /index\.ts$/, sideEffects: false }] },
      },
    },
  });
  const [result] = Array.isArray(output) ? output : [output as Rolldown.RolldownOutput];
  if (result === undefined || !('output' in result)) throw new Error('the build gave no output');
  return result.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
}

/** The code of the chunk `name` and of every chunk it imports statically. */
function staticCode(chunks: readonly Rolldown.OutputChunk[], name: string): string {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === name);
  const seen = new Set<string>();
  const visit = (chunk: Rolldown.OutputChunk | undefined): void => {
    if (chunk === undefined || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) visit(byFile.get(file));
  };
  visit(entry);
  return [...seen].map((file) => byFile.get(file)?.code ?? '').join('\n');
}

describe('imports through a face, rewritten to the modules that define the names', () => {
  let root = '';
  let remove = async (): Promise<void> => {};

  beforeAll(async () => {
    ({ dir: root, remove } = await makeTempDir('vigil-face-imports-'));
    for (const [file, code] of Object.entries(sources)) {
      await mkdir(path.dirname(path.join(root, 'src', file)), { recursive: true });
      await writeFile(path.join(root, 'src', file), code);
    }
  });
  afterAll(() => remove());

  it('keeps a module with a top-level effect out of an entry that imports another name of its face', async () => {
    const chunks = await bundle(root, true);
    const worker = staticCode(chunks, 'worker');
    expect(worker).toContain('100644');
    expect(worker).not.toContain('PACKS-MODULE');
    expect(worker).not.toContain('promisify');
    expect(staticCode(chunks, 'core')).toContain('PACKS-MODULE');
  });

  it("keeps the face's own loaders working, and the module they load out of the entry's static files", async () => {
    const chunks = await bundle(root, true);
    const lazy = chunks.find((chunk) => !chunk.isEntry && chunk.code.includes('PACKS-MODULE'));
    expect(lazy).toBeDefined();
    expect(staticCode(chunks, 'worker')).toMatch(/import\(["']\.\/[^"']+["']\)/);
  });

  it("keeps one copy of a face's own code, whether a module takes it by name or loads the whole face", async () => {
    const chunks = await bundle(root, true);
    expect(chunks.map((chunk) => chunk.code.split('STORE-OWN').length - 1).reduce((a, b) => a + b)).toBe(1);
  });

  it('is what the bundler alone does not do: without the rewrite, the entry loads the module it does not use', async () => {
    expect(staticCode(await bundle(root, false), 'worker')).toContain('PACKS-MODULE');
  });
});
