import path from 'node:path';
import type { Plugin } from 'vite';

/** What the plugin reads and changes of one output chunk (rolldown's `OutputChunk`). */
export interface FacadeChunk {
  readonly type: 'chunk';
  readonly fileName: string;
  readonly isEntry: boolean;
  readonly isDynamicEntry: boolean;
  code: string;
  dynamicImports: string[];
}

/** A file of the bundle: a chunk, or an asset (left alone). */
export type BundleFile = FacadeChunk | { readonly type: 'asset' };

/** A facade's one source: the chunk it re-exports from (its file name) and each export's name there, by its own. */
export interface Facade {
  readonly target: string;
  readonly names: ReadonlyMap<string, string>;
}

const reExport = /^export\s*\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)";?$/;
const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * The facade `chunk` is, or undefined: a dynamic entry (not a static one) whose whole code is one
 * `export { a as b, … } from "./chunk.js"` (rolldown emits one for each dynamically imported module
 * that the chunk plan put in a group's chunk: rolldown/rolldown#9729; Rollup never does).
 */
export function facadeOf(chunk: FacadeChunk): Facade | undefined {
  if (chunk.isEntry || !chunk.isDynamicEntry) return undefined;
  const match = reExport.exec(chunk.code.trim());
  if (match === null) return undefined;
  const names = new Map<string, string>();
  for (const part of (match[1] ?? '').split(',')) {
    const [local = '', exported = local, ...rest] = part.trim().split(/\s+as\s+/);
    if (rest.length > 0 || !identifier.test(local) || !identifier.test(exported)) return undefined;
    names.set(exported, local);
  }
  if (names.size === 0) return undefined;
  return { target: path.posix.join(path.posix.dirname(chunk.fileName), match[2] ?? ''), names };
}

/** The path of `to` as an import in `from` (both bundle file names): `./x.js`, `../x.js`, `./chunks/x.js`. */
function relativeImport(from: string, to: string): string {
  const relative = path.posix.relative(path.posix.dirname(from), to);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

const quoted = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites every `import("./facade.js")` of the bundle to import the chunk behind it and pick the
 * facade's names (`import("./target.js").then((m) => ({ name: m.x }))`), and drops the facades: a
 * relayed `vigil` command or hook then loads one ES module less per facade it went through
 * (about a millisecond of CPU each). Only dynamic imports are rewritten, and a facade still imported
 * any other way is kept.
 */
export function collapseFacades(bundle: Record<string, BundleFile>): string[] {
  const facades = new Map<string, Facade>();
  for (const file of Object.values(bundle)) {
    const facade = file.type === 'chunk' ? facadeOf(file) : undefined;
    if (file.type === 'chunk' && facade !== undefined && bundle[facade.target]?.type === 'chunk')
      facades.set(file.fileName, facade);
  }
  const collapsed = new Set(facades.keys());
  for (const file of Object.values(bundle)) {
    if (file.type !== 'chunk' || facades.has(file.fileName)) continue;
    for (const [fileName, facade] of facades) {
      const specifier = relativeImport(file.fileName, fileName);
      const pattern = new RegExp(`\\bimport\\((["'])${quoted(specifier)}\\1\\)`, 'g');
      file.code = file.code.replace(pattern, () => {
        const picks = [...facade.names].map(([name, local]) => `${name}: m.${local}`).join(', ');
        return `import("${relativeImport(file.fileName, facade.target)}").then((m) => ({ ${picks} }))`;
      });
      if (new RegExp(`["']${quoted(specifier)}["']`).test(file.code)) collapsed.delete(fileName);
      else if (file.dynamicImports.includes(fileName))
        file.dynamicImports = [
          ...new Set(file.dynamicImports.map((name) => (name === fileName ? facade.target : name))),
        ];
    }
  }
  for (const fileName of collapsed) Reflect.deleteProperty(bundle, fileName);
  return [...collapsed];
}

/** The build's plugin: facades collapsed once the bundle is complete. */
export function collapseFacadesPlugin(): Plugin {
  return {
    name: 'vigil-collapse-facades',
    apply: 'build',
    generateBundle(_options, bundle) {
      collapseFacades(bundle);
    },
  };
}
