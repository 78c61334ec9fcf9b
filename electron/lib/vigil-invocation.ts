import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { VigilInvocation } from '../../shared/connect/connect-config';

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Node by absolute path: this process's own, unless it is Electron's; then the first `node` on PATH. */
async function nodeExecutable(env: NodeJS.ProcessEnv): Promise<string> {
  if (!('electron' in process.versions)) return process.execPath;
  const names = process.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const folder of (env['PATH'] ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry))) {
    for (const name of names) if (await isExecutable(path.join(folder, name))) return path.join(folder, name);
  }
  return 'node';
}

/**
 * How to run the `vigil` CLI by absolute path, for the configurations `vigil connect` writes
 * (`vigil` is not on PATH after `npm install`): Node, then the built `out/main/cli.cjs` (package.json's
 * `bin`, whose relayed commands and hooks start fastest; `cli.js` in a build older than it); when Vigil
 * runs from its TypeScript sources (tests, development), Node with tsx's loader and `electron/cli/vigil.ts`.
 */
export async function vigilInvocation(env: NodeJS.ProcessEnv = process.env): Promise<VigilInvocation> {
  const node = await nodeExecutable(env);
  const here = path.dirname(fileURLToPath(import.meta.url));
  if (import.meta.url.endsWith('.ts')) {
    const root = path.resolve(here, '../..');
    const loader = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    return { command: node, args: ['--import', loader, path.join(root, 'electron/cli/vigil.ts')] };
  }
  // The built bundle: this module sits in out/main/ or one of its chunk folders, beside cli.cjs and cli.js.
  const candidates = ['cli.cjs', 'cli.js'].flatMap((name) => [path.join(here, name), path.join(here, '..', name)]);
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return { command: node, args: [candidate] };
  }
  return { command: node, args: [path.join(here, 'cli.js')] };
}
