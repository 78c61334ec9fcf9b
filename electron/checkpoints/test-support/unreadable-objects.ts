import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes the store's objects folder unreadable for real, as root too (where a permission stops
 * nothing): the folder is moved aside and a file put in its place, so every read and write of an
 * object fails (ENOTDIR). Resolves to what puts the folder back, so git's own CLI can read the store.
 */
export async function makeObjectsUnreadable(home: string): Promise<() => Promise<void>> {
  const objects = path.join(home, 'checkpoints/store/objects');
  await rename(objects, `${objects}.aside`);
  await writeFile(objects, 'not a folder\n');
  return async () => {
    await rm(objects);
    await rename(`${objects}.aside`, objects);
  };
}
