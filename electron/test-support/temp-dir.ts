import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A fresh real directory under the OS temp folder, and its remover. Resolved through symlinks (macOS /var → /private/var). */
export async function makeTempDir(
  prefix = 'vigil-test-',
): Promise<{ readonly dir: string; readonly remove: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
