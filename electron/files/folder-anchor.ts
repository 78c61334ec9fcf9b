import type { BigIntStats } from 'node:fs';
import { lstat, mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from './file-system-error';
import {
  directoryIdentityOf,
  folderChanged,
  holdChildDirectory,
  holdDirectory,
  type DirectoryIdentity,
  type HeldDirectory,
} from './held-directory';

/**
 * The folder of a file, as resolved once: its deepest existing folder (canonical path and
 * identity) and the folders still to create below it. What runs later acts on exactly this.
 */
export interface FolderAnchor {
  /** The deepest existing folder on the way to the file: its parent folder, when that exists. */
  readonly path: string;
  readonly identity: DirectoryIdentity;
  /** Names of the folders missing between `path` and the file, outermost first. */
  readonly missing: readonly string[];
}

/** A file named by its anchored folder. */
export interface AnchoredFile {
  /** The file's canonical absolute path. */
  readonly path: string;
  readonly folder: FolderAnchor;
}

/**
 * Anchors the folder of a file whose path is canonical: finds the deepest existing folder on
 * its way and records its identity. Refuses (`wrong_kind`) a file where a folder should be, and
 * (`conflict`) a symlink that appeared since the path was resolved. (Holding the anchor later
 * checks again that the folder with this identity really is at this path.)
 */
export async function anchorFile(file: string): Promise<AnchoredFile> {
  const missing: string[] = [];
  for (let current = path.dirname(file); ; current = path.dirname(current)) {
    let stats: BigIntStats;
    try {
      stats = await lstat(current, { bigint: true });
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT' || path.dirname(current) === current)
        throw fileSystemError(error, 'inspect', current);
      missing.unshift(path.basename(current));
      continue;
    }
    if (stats.isSymbolicLink()) throw folderChanged(current, 'became a symbolic link');
    if (!stats.isDirectory())
      throw new AppError('wrong_kind', `Could not reach ${file}: ${current} is a file, not a folder.`, {
        path: current,
      });
    return { path: file, folder: { path: current, identity: directoryIdentityOf(stats), missing } };
  }
}

/** The held folder of a file and what was done to reach it. */
export interface HeldFolder {
  /** The file's own folder, held. */
  readonly folder: HeldDirectory;
  /** The folders this call created, outermost first. */
  readonly created: readonly string[];
  /** Every folder held on the way, outermost first (the parents of created folders, and the file's folder). */
  readonly chain: readonly HeldDirectory[];
}

/** Creates `name` inside a held folder (another writer creating it first is fine); whether this call created it. */
async function makeChild(parent: HeldDirectory, name: string): Promise<boolean> {
  try {
    await mkdir(parent.entry(name));
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw fileSystemError(error, 'create the folder', path.join(parent.path, name));
  }
}

/** Removes created folders, innermost first, through their held parents; a non-empty one stays. */
async function removeCreated(
  made: readonly { readonly parent: HeldDirectory; readonly name: string }[],
): Promise<void> {
  for (const { parent, name } of [...made].reverse()) {
    try {
      await rmdir(parent.entry(name));
    } catch {
      return;
    }
  }
}

/**
 * Runs `task` with the file's folder held: the anchor is held (refusing `conflict` if it is not
 * the folder that was anchored), and the missing folders are created inside it, each held in turn
 * without following a symlink — or, when `create` is false, the file is reported missing
 * (`not_found`). Created folders are removed again if the task fails; every hold is closed.
 */
export async function withHeldFolder<T>(
  file: AnchoredFile,
  options: { readonly create: boolean },
  task: (held: HeldFolder) => Promise<T>,
): Promise<T> {
  const { folder } = file;
  if (!options.create && folder.missing.length > 0) {
    throw new AppError(
      'not_found',
      `${file.path} does not exist (the folder ${path.join(folder.path, folder.missing[0] ?? '')} does not exist).`,
      { path: file.path },
    );
  }
  const chain = [await holdDirectory(folder.path, folder.identity)];
  const made: { parent: HeldDirectory; name: string }[] = [];
  try {
    for (const name of folder.missing) {
      const parent = chain[chain.length - 1] as HeldDirectory;
      if (await makeChild(parent, name)) made.push({ parent, name });
      chain.push(await holdChildDirectory(parent, name));
    }
    const created = made.map(({ parent, name }) => path.join(parent.path, name));
    return await task({ folder: chain[chain.length - 1] as HeldDirectory, created, chain });
  } catch (error) {
    await removeCreated(made);
    throw error;
  } finally {
    await Promise.all(chain.map((held) => held.close()));
  }
}
