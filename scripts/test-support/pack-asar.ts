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

/** Packs `files` into a real asar archive with @electron/asar's own CLI; returns the archive's path. */
export function packAsar(workDir: string, files: Readonly<Record<string, string>>): string {
  const source = path.join(workDir, 'app');
  writeTree(source, files);
  const archive = path.join(workDir, 'app.asar');
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/@electron/asar/bin/asar.js'), 'pack', source, archive]);
  return archive;
}
