import path from 'node:path';
import { hasRealFolders } from './disk-entry';
import { readDiskVersion } from './disk-version';
import { storedPathExclusion } from './diff-live-tree';
import type { TreeChange } from './diff-tree-changes';

/**
 * A file the checkpoint holds but Vigil's live walk leaves out (its rules exclude it: media,
 * databases, `.envrc`, build output; another program's store, such as Hermes's, keeps them) is
 * compared with what is on disk instead: unchanged is no change (undefined), another version is a
 * modification, and only a missing file is a deletion. Any other change is given back as it is.
 */
export async function withHeldFileOnDisk(dir: string, change: TreeChange): Promise<TreeChange | undefined> {
  if (change.old === undefined || change.new !== undefined || storedPathExclusion(change.path, false) === undefined)
    return change;
  if (!(await hasRealFolders(dir, change.path))) return change;
  const found = await readDiskVersion(path.join(dir, ...change.path.split('/')), undefined, { within: dir });
  if (found.file === undefined) return change;
  if (found.file.oid === change.old.oid && found.file.mode === change.old.mode) return undefined;
  return { ...change, new: found.file };
}
