import { spawnSync } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../electron/test-support/run-vigil';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { facadeOf } from './collapse-facades';
import { buildMain } from './test-support/main-build';

const root = path.resolve(import.meta.dirname, '../..');
const workerEntry = path.join(root, 'electron/checkpoints/snapshot/hash-worker.ts');

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

/** `file` and every file it imports statically (bundle files, by name relative to `outDir`). */
async function staticFiles(outDir: string, file: string): Promise<Set<string>> {
  const files = new Set<string>();
  const pending = [path.join(outDir, file)];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const name = path.relative(outDir, next);
    if (files.has(name)) continue;
    files.add(name);
    const code = await readFile(next, 'utf8');
    for (const [, target] of code.matchAll(/^(?:import|export)\b[^'"()]*?["'](\.{1,2}\/[^"']+)["'];?$/gm))
      pending.push(path.resolve(path.dirname(next), target ?? ''));
  }
  return files;
}

/** The bundle file `file` imports dynamically from the line that names `name` (`import("./x.js").then(…)` or a facade). */
async function dynamicTarget(outDir: string, file: string, name: string): Promise<string> {
  const code = await readFile(path.join(outDir, file), 'utf8');
  const line = code.split('\n').find((text) => text.includes(name) && text.includes('import('));
  const target = /import\("(\.{1,2}\/[^"]+)"\)/.exec(line ?? '')?.[1];
  if (target === undefined) throw new Error(`${file} has no dynamic import for ${name}`);
  return path.relative(outDir, path.resolve(path.dirname(path.join(outDir, file)), target));
}

/** The built `vigil` run in `outDir` (no package needed: these paths load none), with a throwaway data folder. */
function runBuilt(
  outDir: string,
  args: readonly string[],
  home: string,
): { readonly status: number | null; readonly stdout: string } {
  const run = spawnSync(process.execPath, [path.join(outDir, 'cli.js'), ...args], {
    encoding: 'utf8',
    env: childEnv({ VIGIL_HOME: home, VIGIL_NO_CORE: '1' }),
  });
  return { status: run.status, stdout: run.stdout };
}

/**
 * The files a one-shot `vigil tool terminal` call of `true` loads from the build in `outDir` (traced
 * by a module resolve hook), with a throwaway data folder and home; node_modules is linked beside it.
 */
async function oneShotToolFiles(outDir: string): Promise<{ readonly status: number | null; readonly files: string[] }> {
  const base = path.dirname(outDir);
  await symlink(path.join(root, 'node_modules'), path.join(base, 'node_modules')).catch(() => undefined);
  const project = path.join(base, 'project');
  await mkdir(project, { recursive: true });
  const resolver = `data:text/javascript,${encodeURIComponent("export async function resolve(s, c, n) { const r = await n(s, c); if (r.url.startsWith('file:')) process.stderr.write('IMPORT ' + r.url + '\\n'); return r; }")}`;
  const register = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(resolver)});`)}`;
  const args = ['tool', 'terminal', '--args', JSON.stringify({ command: 'true' }), '--cwd', project];
  const run = spawnSync(process.execPath, ['--import', register, path.join(outDir, 'cli.js'), ...args], {
    encoding: 'utf8',
    env: childEnv({
      VIGIL_HOME: path.join(base, 'tool-home'),
      HOME: path.join(base, 'tool-user'),
      HERMES_HOME: path.join(base, 'no-hermes'),
      VIGIL_NO_CORE: '1',
    }),
  });
  const files = run.stderr
    .split('\n')
    .flatMap((line) => (line.startsWith('IMPORT file://') ? [line.slice('IMPORT file://'.length)] : []));
  return { status: run.status, files: [...new Set(files)] };
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

  it('holds no one-line facade chunk: a dynamic import of a module in a planned chunk imports that chunk', async () => {
    const { readdir } = await import('node:fs/promises');
    const chunks = await readdir(path.join(outDir, 'chunks'));
    const facades: string[] = [];
    for (const name of chunks) {
      const code = await readFile(path.join(outDir, 'chunks', name), 'utf8');
      const chunk = {
        type: 'chunk',
        fileName: `chunks/${name}`,
        isEntry: false,
        isDynamicEntry: true,
        code,
        dynamicImports: [],
      };
      if (facadeOf({ ...chunk, type: 'chunk' }) !== undefined) facades.push(name);
    }
    expect(facades).toEqual([]);
  });

  it("loads three files for a relayed `vigil checkpoint` and for `vigil hook`: the executable, the relay client, and the path's chunk", async () => {
    const base = await dynamicTarget(outDir, 'cli.js', 'runCliProcess');
    const hook = await dynamicTarget(outDir, 'cli.js', 'runHookProcess');
    const checkpointCommand = await dynamicTarget(outDir, base, 'checkpointCommand');
    const checkpoint = new Set([
      ...(await staticFiles(outDir, 'cli.js')),
      ...(await staticFiles(outDir, base)),
      ...(await staticFiles(outDir, checkpointCommand)),
    ]);
    const hookFiles = new Set([...(await staticFiles(outDir, 'cli.js')), ...(await staticFiles(outDir, hook))]);
    const named = (files: Set<string>): string[] =>
      [...files].map((file) => path.basename(file).replace(/-[\w-]{8}\.js$/, '')).sort();
    expect(named(checkpoint)).toEqual(['cli-base', 'cli-relay', 'cli.js']);
    expect(named(hookFiles)).toEqual(['cli-hook', 'cli-relay', 'cli.js']);
  });

  it("loads for a one-shot sandboxed tool call no other path's chunk: not the hook's, nor the sessions-show and restore commands'", async () => {
    const { status, files } = await oneShotToolFiles(outDir);
    expect(status).toBe(0);
    const chunks = files
      .filter((file) => file.startsWith(path.join(outDir, 'chunks')))
      .map((file) => path.basename(file).replace(/-[\w-]{8}\.js$/, ''));
    expect(chunks).toContain('core');
    expect(chunks).toContain('command-sandbox');
    expect(
      chunks.filter((chunk) => /^cli-(hook|checkpoints-restore-command|sessions-show-command)$/.test(chunk)),
    ).toEqual([]);
    // The call ran sandboxed: the engine was loaded.
    expect(files.some((file) => file.includes('/@anthropic-ai/sandbox-runtime/'))).toBe(true);
  });

  it("runs through the collapsed imports: the version, a command's help from the base chunk and from its own, the hook's help", () => {
    const home = path.join(path.dirname(outDir), 'home');
    expect(runBuilt(outDir, ['--version'], home).stdout).toMatch(/^\d+\.\d+\.\d+/);
    const helps = [
      [['checkpoint', '--help'], 'vigil checkpoint DIR'],
      [['checkpoints', 'list', '--help'], 'vigil checkpoints list DIR'],
      [['hook', '--help'], 'Usage: vigil hook'],
    ] as const;
    for (const [args, usage] of helps) {
      const run = runBuilt(outDir, args, home);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(usage);
    }
  });
});
