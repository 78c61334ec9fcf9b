import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** Where everything of the checkpoint engine lives under `$VIGIL_HOME/checkpoints`. */
export interface StoreLayout {
  /** `$VIGIL_HOME/checkpoints`. */
  readonly root: string;
  /** The bare git directory shared by every directory (`checkpoints/store`). */
  readonly gitdir: string;
  /** `checkpoints/dirs`: one `<dirhash>.json` per directory. */
  readonly registryDir: string;
  /** `checkpoints/stat`: one stat cache per directory. */
  readonly statDir: string;
  /** The store's cross-process lock file. */
  readonly lockPath: string;
  /** Where refs that had to be dropped by a repair are written down, for a human to look at. */
  readonly repairLog: string;
}

/**
 * Vigil's own folders a walk of a directory never enters: the checkpoints folder, and the data
 * folder holding it when it is the usual `$VIGIL_HOME/checkpoints`.
 */
export function ignoredFoldersOf(root: string): string[] {
  return path.basename(root) === 'checkpoints' ? [root, path.dirname(root)] : [root];
}

/**
 * `ignoredFoldersOf`, plus the real path of each where it differs: a walk composes paths from the
 * directory's real path, so a data folder named through a symlink (`VIGIL_HOME=~/link/.vigil`, the
 * link to a folder inside a checkpointed directory) is known by its real path too. A folder not made
 * yet is named as given (nothing of it can be walked then).
 */
export async function realIgnoredFoldersOf(root: string): Promise<string[]> {
  const given = ignoredFoldersOf(root);
  const real = await Promise.all(given.map((folder) => realpath(folder).catch(() => folder)));
  return [...new Set([...given, ...real])];
}

/** The layout under a checkpoints folder. */
export function storeLayout(root: string): StoreLayout {
  return {
    root,
    gitdir: path.join(root, 'store'),
    registryDir: path.join(root, 'dirs'),
    statDir: path.join(root, 'stat'),
    lockPath: path.join(root, 'store.lock'),
    repairLog: path.join(root, 'repairs.log'),
  };
}

/** The first 16 hex characters of sha256 of the resolved absolute path (the seed's Hermes rule). */
export function dirHash(resolvedDir: string): string {
  return createHash('sha256').update(resolvedDir).digest('hex').slice(0, 16);
}

/** The identity every checkpoint commit and every reflog line of the store is made with. */
export const vigilIdentity = 'Vigil <vigil@localhost>';

/** Where the refs of the recently dropped area live: `refs/vigil-dropped/<dirhash>/<droppedAt>-<reason>`. */
export const droppedRefsFolder = 'refs/vigil-dropped';

/** The ref of a directory's timeline. */
export function timelineRef(dirhash: string): string {
  return `refs/vigil/${dirhash}`;
}

/** The registry file of a directory. */
export function registryFile(layout: StoreLayout, dirhash: string): string {
  return path.join(layout.registryDir, `${dirhash}.json`);
}

/** The stat cache of a directory. */
export function statCacheFile(layout: StoreLayout, dirhash: string): string {
  return path.join(layout.statDir, dirhash);
}
