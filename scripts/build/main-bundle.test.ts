import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../electron/test-support/run-vigil';
import { makeTempDir } from '../../electron/test-support/temp-dir';

const root = path.resolve(import.meta.dirname, '../..');
const workerEntry = path.join(root, 'electron/checkpoints/snapshot/hash-worker.ts');

/** The real main build (bench/chunk-plan.config.ts: the main part of electron.vite.config.ts, chunk plan on) into `outDir`. */
function buildMain(outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '-c', 'bench/chunk-plan.config.ts'],
    { cwd: root, encoding: 'utf8', env: childEnv({ VIGIL_BENCH_OUT_DIR: outDir, VIGIL_BENCH_CHUNK_PLAN: 'on' }) },
  );
  if (result.status !== 0) throw new Error(`the main build failed: ${result.stderr}`);
}

/** The source modules (`electron/…`, `shared/…`) in `file` and every file it imports statically, from the bundler's region comments. */
async function staticModules(file: string): Promise<Set<string>> {
  const modules = new Set<string>();
  const seen = new Set<string>();
  const pending = [file];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    const code = await readFile(next, 'utf8');
    for (const [, module] of code.matchAll(/^\/\/ ((?:electron|shared)\/\S+\.ts)$/gm)) modules.add(module ?? '');
    for (const [, target] of code.matchAll(/^(?:import|export)\b[^'"()]*?["'](\.{1,2}\/[^"']+)["'];?$/gm))
      pending.push(path.resolve(path.dirname(next), target ?? ''));
  }
  return modules;
}

/**
 * What `entry` uses, as TypeScript's checker sees it: the modules that declare each value it
 * imports (through a face, the module behind it), and so on from those. Type-only imports load nothing.
 */
function usedModules(entry: string): Set<string> {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const used = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (used.has(relative) || relative.startsWith('node_modules')) continue;
    used.add(relative);
    const source = program.getSourceFile(file);
    for (const statement of source?.statements ?? []) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      if (
        ts.isImportDeclaration(statement)
          ? statement.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword
          : statement.isTypeOnly
      )
        continue;
      const moduleSymbol = statement.moduleSpecifier && checker.getSymbolAtLocation(statement.moduleSpecifier);
      const named = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
      if (named !== undefined && (ts.isNamedImports(named) || ts.isNamedExports(named))) {
        for (const element of named.elements) {
          if (element.isTypeOnly) continue;
          const symbol = checker.getSymbolAtLocation(element.propertyName ?? element.name);
          const target = symbol === undefined ? undefined : checker.getAliasedSymbol(symbol);
          const declaration = target?.declarations?.[0];
          if (
            declaration !== undefined &&
            !ts.isTypeAliasDeclaration(declaration) &&
            !ts.isInterfaceDeclaration(declaration)
          )
            pending.push(declaration.getSourceFile().fileName);
        }
      } else {
        const declaration = moduleSymbol?.declarations?.[0];
        if (declaration !== undefined) pending.push(declaration.getSourceFile().fileName);
      }
    }
  }
  return used;
}

describe('the main bundle, built for real', () => {
  let outDir = '';
  let remove = async (): Promise<void> => {};

  beforeAll(async () => {
    const temp = await makeTempDir('vigil-main-bundle-');
    remove = temp.remove;
    outDir = path.join(temp.dir, 'main');
    buildMain(outDir);
  });
  afterAll(() => remove());

  it('loads into each hashing worker only the modules whose names the worker uses, none pulled through a face', async () => {
    const loaded = await staticModules(path.join(outDir, 'hash-worker.js'));
    expect(loaded).toContain('electron/checkpoints/snapshot/hash-worker.ts');
    expect(loaded).toContain('electron/git-store/git-objects.ts');
    const used = usedModules(workerEntry);
    expect([...loaded].filter((module) => !used.has(module))).toEqual([]);
  });
});
