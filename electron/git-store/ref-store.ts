import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, readSmallFile, syncDirectory } from '../files';
import { stageFileDurably, writeFileDurably, type StagedFile } from './durable-file';
import { isObjectId } from './git-objects';
import { RefLog } from './ref-log';
import { droppedRefsFolder, timelineRef } from './store-layout';

/** One ref of the recently dropped area. */
export interface DroppedRef {
  readonly dirhash: string;
  /** `<droppedAt ms>-<reason>[-<n>]`: when and why the batch was cut (see maintenance/dropped-area.ts). */
  readonly name: string;
  /** The newest checkpoint of the batch; the batch ends at the next cut point of the shallow list. */
  readonly head: string;
}

/** Whether a file name is a dropped-area ref's. */
export function isDroppedRefName(name: string): boolean {
  return /^\d{13}-(retention|size-cap|prune)(-\d+)?$/.test(name);
}

/** How `RefStore.update` moves a ref. */
export interface RefUpdateOptions {
  /** Also fsync the ref's folder, so the move itself survives a power cut. */
  readonly isDurable?: boolean;
  /** What must be done before the ref may move (the objects it names made durable); runs while the new ref is staged. */
  readonly before?: () => Promise<unknown>;
  /** `expected` was read under the store lock's hold the caller still runs under, and `before` asserts that hold. */
  readonly isExpectedHeld?: boolean;
  /**
   * With `isDurable`: the folder's fsync, once the ref is renamed, is handed over instead of awaited. The caller
   * awaits it before it acknowledges the move, and may do the rest of its work (and release the lock) meanwhile.
   */
  readonly deferFolderSync?: (synced: Promise<void>) => void;
}

const gitConfig = [
  '[core]',
  '\trepositoryformatversion = 0',
  '\tfilemode = true',
  '\tbare = true',
  '\tlogallrefupdates = false',
  '[gc]',
  '\tauto = 0',
  '[receive]',
  '\tdenyNonFastForwards = false',
  '',
].join('\n');

/**
 * The refs and the shallow list of the store: `refs/vigil/<dirhash>` per directory (loose ref
 * files, replaced atomically; `packed-refs` is read too, in case someone ran `git gc` on the store)
 * and git's `shallow` file, which marks where pruned timelines end.
 */
export class RefStore {
  /** Where each ref pointed before (git's reflog format). */
  readonly log: RefLog;

  constructor(
    readonly gitdir: string,
    /** Told which files a durable update made durable (diagnostics and tests). */
    private readonly onSynced?: (files: readonly string[]) => void,
  ) {
    this.log = new RefLog(gitdir);
  }

  /** Creates the bare repository when it is missing (HEAD is written last: it marks a finished init). */
  async init(): Promise<void> {
    if (
      await readFile(path.join(this.gitdir, 'HEAD')).then(
        () => true,
        () => false,
      )
    )
      return;
    for (const folder of ['objects/pack', 'objects/info', 'refs/vigil', 'refs/heads', 'refs/tags', 'logs/refs/vigil']) {
      await mkdir(path.join(this.gitdir, folder), { recursive: true });
    }
    await writeFile(path.join(this.gitdir, 'config'), gitConfig);
    await writeFile(
      path.join(this.gitdir, 'description'),
      'Vigil checkpoint store: one timeline per directory under refs/vigil/.\n',
    );
    await writeFileDurably(path.join(this.gitdir, 'HEAD'), 'ref: refs/heads/main\n');
  }

  /** The head of a directory's timeline, or undefined when it has none. */
  async read(dirhash: string): Promise<string | undefined> {
    const name = timelineRef(dirhash);
    try {
      const value = (await readSmallFile(path.join(this.gitdir, name))).trim();
      if (!isObjectId(value))
        throw new AppError(
          'io_error',
          `The ref ${name} of the checkpoint store is damaged ("${value.slice(0, 50)}"). Restart Vigil to repair the store.`,
        );
      return value;
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
    return (await this.#packedRefs()).get(name);
  }

  /** Every directory hash that has a timeline, with its head. */
  async list(): Promise<Map<string, string>> {
    const heads = new Map<string, string>();
    for (const [name, oid] of await this.#packedRefs())
      if (name.startsWith('refs/vigil/')) heads.set(name.slice(11), oid);
    const folder = path.join(this.gitdir, 'refs/vigil');
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{16}$/.test(name)) continue;
      const value = (await readSmallFile(path.join(folder, name)).catch(() => '')).trim();
      if (isObjectId(value)) heads.set(name, value);
      else heads.delete(name);
    }
    return heads;
  }

  /**
   * Moves a timeline's head from `expected` to `next` (the store lock must be held), recording the
   * move in the reflog first. Fails with `conflict` when the head is not `expected` any more. The
   * ref file is always fsynced; `isDurable` also fsyncs its folder, so the move itself survives a
   * power cut (a pre-rollback snapshot, before a restore overwrites anything). `before` is what must
   * be done before the ref may move (the objects it names made durable): it runs while the new
   * ref is written and fsynced under a temp name, so the two waits for the disk overlap, and the
   * ref is renamed into place (and the move logged) only once both are done. `isExpectedHeld`: the
   * caller read `expected` under the hold of the store lock it still runs under, and `before` checks
   * that hold was never lost (`FileLock.assertHeld`); only a holder moves a ref, so it is not read again.
   */
  async update(
    dirhash: string,
    next: string,
    expected: string | undefined,
    message = 'checkpoint',
    options: RefUpdateOptions = {},
  ): Promise<void> {
    const { isDurable = false, before, isExpectedHeld = false, deferFolderSync } = options;
    const file = path.join(this.gitdir, timelineRef(dirhash));
    const [current, staged, ready] = await Promise.allSettled([
      isExpectedHeld ? expected : this.read(dirhash),
      stageFileDurably(file, `${next}\n`),
      before?.(),
    ]);
    const temp = staged.status === 'fulfilled' ? staged.value : undefined;
    try {
      for (const outcome of [current, staged, ready]) if (outcome.status === 'rejected') throw outcome.reason;
      if (current.status === 'fulfilled' && current.value !== expected) {
        throw new AppError(
          'conflict',
          `The timeline of ${dirhash} moved while a checkpoint was being taken; nothing was recorded. Try again.`,
        );
      }
      await this.log.append(dirhash, expected, next, message);
      await temp?.commit();
    } catch (error) {
      await temp?.discard();
      throw error;
    }
    if (!isDurable) return;
    const folder = path.dirname(file);
    const synced = syncDirectory(folder).then(() => this.onSynced?.([file, folder]));
    if (deferFolderSync === undefined) await synced;
    else deferFolderSync(synced);
  }

  /** Deletes a timeline's ref (a repair of a ref whose commit is gone). */
  async remove(dirhash: string): Promise<void> {
    await unlink(path.join(this.gitdir, timelineRef(dirhash))).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
  }

  /**
   * The refs of the "recently dropped" area (`refs/vigil-dropped/<dirhash>/<name>`), of one
   * directory or of all: each keeps one batch of checkpoints a cut took off a timeline reachable.
   */
  async listDropped(dirhash?: string): Promise<DroppedRef[]> {
    const root = path.join(this.gitdir, droppedRefsFolder);
    const hashes = dirhash === undefined ? await readdir(root).catch(() => [] as string[]) : [dirhash];
    const found: DroppedRef[] = [];
    for (const hash of hashes) {
      if (!/^[0-9a-f]{16}$/.test(hash)) continue;
      for (const name of await readdir(path.join(root, hash)).catch(() => [] as string[])) {
        if (!isDroppedRefName(name)) continue;
        const value = (await readSmallFile(path.join(root, hash, name)).catch(() => '')).trim();
        if (isObjectId(value)) found.push({ dirhash: hash, name, head: value });
      }
    }
    return found;
  }

  /**
   * The file names in one directory's dropped area, from a single listing of its folder: what a cut
   * needs to pick a free name, without reading every ref (one per cut, kept for days).
   */
  async droppedNames(dirhash: string): Promise<Set<string>> {
    const folder = path.join(this.gitdir, droppedRefsFolder, dirhash);
    return new Set(await readdir(folder).catch(() => [] as string[]));
  }

  /**
   * Writes a dropped-area ref and makes it durable with its folders (the store lock must be held):
   * a cut writes it before it changes the shallow list, so no moment exists at which the
   * checkpoints it keeps are reachable from nothing.
   */
  async writeDropped(dirhash: string, name: string, head: string): Promise<void> {
    if (!isDroppedRefName(name)) throw new Error(`not a dropped-area ref name: ${name}`);
    const root = path.join(this.gitdir, droppedRefsFolder);
    const folder = path.join(root, dirhash);
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, name);
    await writeFileDurably(file, `${head}\n`);
    // Three folders, one wait: the ref is durable once all three are, in whichever order they finish.
    await Promise.all([folder, root, path.dirname(root)].map((synced) => syncDirectory(synced)));
    this.onSynced?.([file, folder, root]);
  }

  /** Deletes a dropped-area ref (its checkpoints become garbage), durably. */
  async removeDropped(dirhash: string, name: string): Promise<void> {
    const folder = path.join(this.gitdir, droppedRefsFolder, dirhash);
    await unlink(path.join(folder, name)).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
    await syncDirectory(folder).catch(() => undefined);
  }

  /** The commits where pruned timelines were cut (their parents are gone). */
  async readShallow(): Promise<Set<string>> {
    const text = await readSmallFile(path.join(this.gitdir, 'shallow')).catch(() => '');
    return new Set(text.split('\n').filter(isObjectId));
  }

  /** Replaces the shallow list (the store lock must be held); an empty list removes the file. */
  async writeShallow(cuts: ReadonlySet<string>): Promise<void> {
    await (await this.stageShallow(cuts)).commit();
  }

  /**
   * A new shallow list written and fsynced under a temp name, which replaces the list only at
   * `commit` (the store lock must be held then): a cut stages it while its dropped ref is made durable.
   */
  async stageShallow(cuts: ReadonlySet<string>): Promise<StagedFile> {
    const file = path.join(this.gitdir, 'shallow');
    if (cuts.size === 0) return { commit: () => unlink(file).catch(() => undefined), discard: () => Promise.resolve() };
    return stageFileDurably(file, `${[...cuts].sort().join('\n')}\n`);
  }

  async #packedRefs(): Promise<Map<string, string>> {
    const refs = new Map<string, string>();
    const text = await readSmallFile(path.join(this.gitdir, 'packed-refs')).catch(() => '');
    for (const line of text.split('\n')) {
      const match = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) refs.set(match[2], match[1]);
    }
    return refs;
  }
}
