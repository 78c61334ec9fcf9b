import { describe, expect, it } from 'vitest';
import { collapseFacades, facadeOf, type BundleFile, type FacadeChunk } from './collapse-facades';

function chunk(fileName: string, code: string, extra: Partial<FacadeChunk> = {}): FacadeChunk {
  return { type: 'chunk', fileName, isEntry: false, isDynamicEntry: false, code, dynamicImports: [], ...extra };
}

describe('collapsing dynamic-import facades', () => {
  it('reads a facade: one re-export from one chunk, as a dynamic entry only', () => {
    const code = 'export { S as checkpointCommand, T as other } from "./cli-base-X.js";\n';
    expect(facadeOf(chunk('chunks/f.js', code, { isDynamicEntry: true }))).toEqual({
      target: 'chunks/cli-base-X.js',
      names: new Map([
        ['checkpointCommand', 'S'],
        ['other', 'T'],
      ]),
    });
    expect(facadeOf(chunk('chunks/f.js', code))).toBeUndefined();
    expect(facadeOf(chunk('f.js', code, { isDynamicEntry: true, isEntry: true }))).toBeUndefined();
    const withCode = `const a = 1;\n${code}`;
    expect(facadeOf(chunk('chunks/f.js', withCode, { isDynamicEntry: true }))).toBeUndefined();
  });

  it('imports the chunk behind each facade and picks its names, from any folder, and drops the facade', () => {
    const bundle: Record<string, BundleFile> = {
      'cli.js': chunk('cli.js', 'const m = await import("./chunks/f.js");', {
        isEntry: true,
        dynamicImports: ['chunks/f.js'],
      }),
      'chunks/f.js': chunk('chunks/f.js', 'export { S as run } from "./base.js";', { isDynamicEntry: true }),
      'chunks/base.js': chunk('chunks/base.js', 'const S = () => 42; const t = () => import("./f.js"); export { S };'),
    };
    expect(collapseFacades(bundle)).toEqual(['chunks/f.js']);
    expect(Object.keys(bundle).sort()).toEqual(['chunks/base.js', 'cli.js']);
    const cli = bundle['cli.js'] as FacadeChunk;
    expect(cli.code).toBe('const m = await import("./chunks/base.js").then((m) => ({ run: m.S }));');
    expect(cli.dynamicImports).toEqual(['chunks/base.js']);
    expect((bundle['chunks/base.js'] as FacadeChunk).code).toContain('import("./base.js").then((m) => ({ run: m.S }))');
  });

  it('keeps a facade that a chunk also imports statically', () => {
    const bundle: Record<string, BundleFile> = {
      'a.js': chunk('a.js', 'import { run } from "./f.js";\nconst n = import("./f.js");', { isEntry: true }),
      'f.js': chunk('f.js', 'export { S as run } from "./base.js";', { isDynamicEntry: true }),
      'base.js': chunk('base.js', 'export { S };'),
    };
    expect(collapseFacades(bundle)).toEqual([]);
    expect(Object.keys(bundle).sort()).toEqual(['a.js', 'base.js', 'f.js']);
  });
});
