import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { errnoCode } from '../../files/file-system-error';
import { syncDirectory } from '../../files/sync-directory';
import { writeFileDurably } from './durable-file';
import { isObjectId } from './git-objects';
import { RefLog } from './ref-log';
import { timelineRef } from './store-layout';

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
      const value = (await readFile(path.join(this.gitdir, name), 'utf8')).trim();
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
      const value = (await readFile(path.join(folder, name), 'utf8').catch(() => '')).trim();
      if (isObjectId(value)) heads.set(name, value);
      else heads.delete(name);
    }
    return heads;
  }

  /**
   * Moves a timeline's head from `expected` to `next` (the store lock must be held), recording the
   * move in the reflog first. Fails with `conflict` when the head is not `expected` any more. The
   * ref file is always fsynced; `isDurable` also fsyncs its folder, so the move itself survives a
   * power cut (a pre-rollback snapshot, before a restore overwrites anything).
   */
  async update(
    dirhash: string,
    next: string,
    expected: string | undefined,
    message = 'checkpoint',
    { isDurable = false } = {},
  ): Promise<void> {
    const current = await this.read(dirhash);
    if (current !== expected) {
      throw new AppError(
        'conflict',
        `The timeline of ${dirhash} moved while a checkpoint was being taken; nothing was recorded. Try again.`,
      );
    }
    await this.log.append(dirhash, expected, next, message);
    const file = path.join(this.gitdir, timelineRef(dirhash));
    await writeFileDurably(file, `${next}\n`);
    if (!isDurable) return;
    await syncDirectory(path.dirname(file));
    this.onSynced?.([file, path.dirname(file)]);
  }

  /** Deletes a timeline's ref (a repair of a ref whose commit is gone). */
  async remove(dirhash: string): Promise<void> {
    await unlink(path.join(this.gitdir, timelineRef(dirhash))).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
  }

  /** The commits where pruned timelines were cut (their parents are gone). */
  async readShallow(): Promise<Set<string>> {
    const text = await readFile(path.join(this.gitdir, 'shallow'), 'utf8').catch(() => '');
    return new Set(text.split('\n').filter(isObjectId));
  }

  /** Replaces the shallow list (the store lock must be held); an empty list removes the file. */
  async writeShallow(cuts: ReadonlySet<string>): Promise<void> {
    const file = path.join(this.gitdir, 'shallow');
    if (cuts.size === 0) {
      await unlink(file).catch(() => undefined);
      return;
    }
    await writeFileDurably(file, `${[...cuts].sort().join('\n')}\n`);
  }

  async #packedRefs(): Promise<Map<string, string>> {
    const refs = new Map<string, string>();
    const text = await readFile(path.join(this.gitdir, 'packed-refs'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const match = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) refs.set(match[2], match[1]);
    }
    return refs;
  }
}
