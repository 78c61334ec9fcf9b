import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Writes `files` (relative path → content) under `directory`. */
export function writeTree(directory: string, files: Readonly<Record<string, string>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(directory, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/**
 * Packs `files` into a real asar archive with @electron/asar's own CLI (folders matching
 * `unpackDir`, a glob, go to `app.asar.unpacked` beside it); returns the archive's path.
 */
export function packAsar(workDir: string, files: Readonly<Record<string, string>>, unpackDir?: string): string {
  const source = path.join(workDir, 'app');
  writeTree(source, files);
  const archive = path.join(workDir, 'app.asar');
  const unpack = unpackDir === undefined ? [] : ['--unpack-dir', unpackDir];
  execFileSync(process.execPath, [
    path.join(repoRoot, 'node_modules/@electron/asar/bin/asar.js'),
    'pack',
    ...unpack,
    source,
    archive,
  ]);
  return archive;
}
