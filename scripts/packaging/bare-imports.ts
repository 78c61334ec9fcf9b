import { builtinModules } from 'node:module';
import ts from 'typescript';

const builtins = new Set(builtinModules);

/** The package a bare specifier names: `zod/v4` → `zod`, `@scope/pkg/sub` → `@scope/pkg`. */
export function packageOfSpecifier(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * The packages a built JavaScript file loads at run time: static and dynamic `import`, `export … from`
 * and `require` of bare specifiers, found with TypeScript's import scanner (so text inside strings
 * and templates does not count). Relative paths, Node built-ins and `electron` (the runtime itself)
 * are not packages the app has to ship.
 */
export function importedPackages(source: string): readonly string[] {
  const found = new Set<string>();
  for (const { fileName: specifier } of ts.preProcessFile(source, true, true).importedFiles) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
    const name = packageOfSpecifier(specifier);
    if (name === 'electron' || builtins.has(name)) continue;
    found.add(name);
  }
  return [...found].sort();
}
