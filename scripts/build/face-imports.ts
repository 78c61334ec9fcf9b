import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSync, type Plugin } from 'vite';

/** Where a face's export comes from: the module that defines it and its name there, or the face's own code. */
export type FaceExport = { readonly module: string; readonly name: string } | 'own';

/** What a face exports, by name (value exports only: type exports are erased). */
export type FaceExports = ReadonlyMap<string, FaceExport>;

/** The module that holds a face's own code (its loaders), less its re-exports: `<folder>/index.face-own.ts`. */
const ownSuffix = '.face-own.ts';

type Program = ReturnType<typeof parseSync>['program'];
type Statement = Program['body'][number];
type Resolve = (source: string, importer: string) => Promise<string | null>;

/** The module `code` (TypeScript) as its syntax tree; a syntax error fails the build, naming the file. */
function parse(code: string, id: string): Program {
  const result = parseSync(id, code, { lang: 'ts' });
  const [error] = result.errors;
  if (error !== undefined) throw new Error(`${id}: ${error.message}`);
  return result.program;
}

/** Is `id` a folder's face (`electron/…/index.ts`) under `root`? */
function isFolderFace(id: string, root: string): boolean {
  return id.startsWith(root + path.sep) && path.basename(id) === 'index.ts';
}

/** Does `statement` load nothing and run nothing (a type, an interface, a type-only export or import)? */
function isTypeOnly(statement: Statement): boolean {
  return (
    statement.type === 'TSInterfaceDeclaration' ||
    statement.type === 'TSTypeAliasDeclaration' ||
    ((statement.type === 'ExportNamedDeclaration' || statement.type === 'ImportDeclaration') &&
      (statement.type === 'ExportNamedDeclaration' ? statement.exportKind : statement.importKind) === 'type')
  );
}

/** The name a specifier's `imported`, `local` or `exported` node spells (an identifier or a string literal). */
function nameOf(node: { type: string; name?: string; value?: unknown }): string {
  return node.type === 'Identifier' ? (node.name ?? '') : String(node.value);
}

/** A relative module specifier from `importer` to the file `target`. */
function specifierFrom(importer: string, target: string): string {
  const relative = path.relative(path.dirname(importer), target).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Reads what the faces of a source tree export, following a face's re-export of another face to
 * the module that defines the name. A face is a folder's `index.ts` (re-exports and its own
 * loaders), or any module that only re-exports (`sandbox/sandbox-api.ts`). A face's `export *`
 * makes its map partial: a name it does not list is then left to the face itself.
 */
export class FaceMaps {
  private readonly maps = new Map<string, Promise<FaceExports | null>>();

  constructor(
    private readonly root: string,
    private readonly resolve: Resolve,
  ) {}

  /** What the face at `id` exports, by name; null when `id` is not a face. */
  exportsOf(id: string): Promise<FaceExports | null> {
    let map = this.maps.get(id);
    if (map === undefined) {
      map = this.read(id);
      this.maps.set(id, map);
    }
    return map;
  }

  private async read(face: string): Promise<FaceExports | null> {
    if (!face.startsWith(this.root + path.sep) || !/\.tsx?$/.test(face)) return null;
    const program = parse(await readFile(face, 'utf8'), face);
    const canOwn = isFolderFace(face, this.root);
    const map = new Map<string, FaceExport>();
    for (const statement of program.body) {
      if (isTypeOnly(statement) || statement.type === 'ExportAllDeclaration') continue;
      const isReExport = statement.type === 'ExportNamedDeclaration' && statement.source !== null;
      if (!isReExport && !canOwn) return null;
      if (statement.type === 'ExportDefaultDeclaration') map.set('default', 'own');
      if (statement.type !== 'ExportNamedDeclaration') continue;
      if (statement.source === null) {
        for (const name of declaredNames(statement)) map.set(name, 'own');
        continue;
      }
      const target = await this.resolve(statement.source.value, face);
      for (const specifier of statement.specifiers) {
        if (specifier.exportKind === 'type') continue;
        const exported = nameOf(specifier.exported);
        const local = nameOf(specifier.local);
        if (target === null) continue;
        const inner = (await this.exportsOf(target))?.get(local);
        if (inner === 'own') map.set(exported, { module: ownModuleOf(target), name: local });
        else map.set(exported, inner ?? { module: target, name: local });
      }
    }
    return map;
  }
}

/** The names an `export const|function|class …` (or `export { a, b }`) declares. */
function declaredNames(statement: Extract<Statement, { type: 'ExportNamedDeclaration' }>): string[] {
  const declaration = statement.declaration;
  if (declaration === null) return statement.specifiers.map((specifier) => nameOf(specifier.exported));
  if (declaration.type === 'VariableDeclaration')
    return declaration.declarations.flatMap((item) => (item.id.type === 'Identifier' ? [item.id.name] : []));
  return 'id' in declaration && declaration.id !== null && declaration.id.type === 'Identifier'
    ? [declaration.id.name]
    : [];
}

/** The id of the module that holds the face `face`'s own code. */
function ownModuleOf(face: string): string {
  return face.slice(0, -'.ts'.length) + ownSuffix;
}

/**
 * `import { a, b as c } from '../folder'` (a face) as imports from the modules that define `a` and
 * `b`, so that a module loads only what it uses of a face: each module a face re-exports is its
 * own module, and one with top-level effects (`promisify(…)`) stayed in any bundle that imported
 * the face for another name (the hashing worker, loading all of the git store for `fileModes`).
 * Returns the new code, or null when nothing changed.
 */
export async function rewriteFaceImports(
  code: string,
  id: string,
  root: string,
  maps: FaceMaps,
  resolve: Resolve,
): Promise<string | null> {
  const program = parse(code, id);
  const edits: { start: number; end: number; text: string }[] = [];
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') continue;
    const specifiers = statement.specifiers;
    if (specifiers.length === 0 || specifiers.some((item) => item.type !== 'ImportSpecifier')) continue;
    const face = await resolve(statement.source.value, id);
    if (face === null || (isFolderFace(face, root) && path.dirname(face) === path.dirname(id))) continue;
    const faceExports = await maps.exportsOf(face);
    if (faceExports === null) continue;
    const bySource = new Map<string, string[]>();
    const types: string[] = [];
    for (const specifier of specifiers) {
      if (specifier.type !== 'ImportSpecifier') continue;
      const imported = nameOf(specifier.imported);
      const local = specifier.local.name;
      if (specifier.importKind === 'type') {
        types.push(imported === local ? local : `${imported} as ${local}`);
        continue;
      }
      const found = faceExports.get(imported) ?? { module: face, name: imported };
      const target = found === 'own' ? { module: ownModuleOf(face), name: imported } : found;
      const source = specifierFrom(id, target.module);
      bySource.set(source, [
        ...(bySource.get(source) ?? []),
        target.name === local ? local : `${target.name} as ${local}`,
      ]);
    }
    const text = [...bySource].map(([source, names]) => `import { ${names.join(', ')} } from '${source}';`);
    if (types.length > 0) text.push(`import type { ${types.join(', ')} } from '${statement.source.value}';`);
    edits.push({ start: statement.start, end: statement.end, text: text.join(' ') });
  }
  if (edits.length === 0) return null;
  let result = code;
  for (const edit of edits.reverse()) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** Is `statement` a re-export (`export … from`)? */
function isReExport(statement: Statement): boolean {
  return (
    statement.type === 'ExportAllDeclaration' ||
    (statement.type === 'ExportNamedDeclaration' && statement.source !== null)
  );
}

/** A face's own code: the face less its re-exports (`export … from`), which its importers now take from their modules. */
async function ownCodeOf(face: string): Promise<string> {
  const code = await readFile(face, 'utf8');
  const reExports = parse(code, face).body.filter(isReExport);
  let result = code;
  for (const statement of reExports.reverse()) result = result.slice(0, statement.start) + result.slice(statement.end);
  return result;
}

/**
 * A folder's face that has code of its own, as its re-exports and a re-export of its own code's
 * names from its own module: the own code then runs once, whether a module reaches it through the
 * face (a dynamic import) or through the own module (a rewritten named import). Null when the face
 * has no code of its own.
 */
async function faceWithOwnModule(code: string, face: string, maps: FaceMaps): Promise<string | null> {
  const own = [...((await maps.exportsOf(face)) ?? [])].flatMap(([name, found]) => (found === 'own' ? [name] : []));
  if (own.length === 0) return null;
  const kept = parse(code, face)
    .body.filter((statement) => isReExport(statement) || isTypeOnly(statement))
    .map((statement) => code.slice(statement.start, statement.end));
  return [...kept, `export { ${own.join(', ')} } from '${specifierFrom(face, ownModuleOf(face))}';`].join('\n');
}

/**
 * The build's rewrite of imports through a folder's face (`electron/<folder>/index.ts`) into
 * imports of the modules that define the names, for every module under `root`. Lint keeps the
 * source importing faces only; the bundle follows what each module uses. A face stays whole for a
 * dynamic import, a namespace import and a name it does not list.
 */
export function faceImports(root: string): Plugin {
  let maps: FaceMaps | undefined;
  return {
    name: 'vigil-face-imports',
    enforce: 'pre',
    buildStart() {
      maps = undefined;
    },
    resolveId(source, importer) {
      if (!source.endsWith(ownSuffix) || importer === undefined) return null;
      return path.resolve(path.dirname(importer), source);
    },
    async load(id) {
      if (!id.startsWith(root + path.sep) || !id.endsWith(ownSuffix)) return null;
      const face = id.slice(0, -ownSuffix.length) + '.ts';
      // A watching build (`npm start`) reloads the own module when its face changes.
      this.addWatchFile(face);
      return ownCodeOf(face);
    },
    async transform(code, id) {
      if (!id.startsWith(root + path.sep) || !/\.tsx?$/.test(id) || id.endsWith('.d.ts')) return null;
      const resolve: Resolve = async (source, importer) => (await this.resolve(source, importer))?.id ?? null;
      maps ??= new FaceMaps(root, resolve);
      const faceCode = isFolderFace(id, root) ? await faceWithOwnModule(code, id, maps) : null;
      const rewritten = await rewriteFaceImports(faceCode ?? code, id, root, maps, resolve);
      const result = rewritten ?? faceCode;
      return result === null ? null : { code: result, map: null };
    },
  };
}
