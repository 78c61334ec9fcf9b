import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The folders whose code ends up in the app. */
const shippedSourceFolders = ['electron', 'shared', 'renderer'] as const;

/** Whether a repository file is shipped code (not a test, a test helper, or a declaration). */
export function isShippedSource(relative: string): boolean {
  const normalized = relative.split(path.sep).join('/');
  return (
    /\.(?:ts|tsx|html)$/.test(normalized) &&
    !/\.(?:test|spec)\.tsx?$/.test(normalized) &&
    !normalized.endsWith('.d.ts') &&
    !normalized.split('/').includes('test-support')
  );
}

/**
 * Copies what electronegativity should read into `target`, keeping repository-relative paths so
 * its findings point at the real files: the shipped sources of electron/, shared/ and renderer/
 * (no tests: they do not ship), package.json, and the built renderer page (out/renderer/index.html,
 * which carries the CSP meta tag the build adds). Returns the files staged.
 */
export function stageScanInput(root: string, target: string): readonly string[] {
  const builtPage = path.join('out', 'renderer', 'index.html');
  if (!existsSync(path.join(root, builtPage))) throw new Error(`${builtPage} is missing: run "npm run build" first`);
  const files = [
    'package.json',
    builtPage,
    ...shippedSourceFolders.flatMap((folder) =>
      readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
        .map((relative) => path.join(folder, relative))
        .filter(isShippedSource),
    ),
  ];
  for (const file of files) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(target, file));
  }
  return files;
}
