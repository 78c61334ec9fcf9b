import { isAppError } from '../../../shared/errors';
import { syncDirectories, type HeldDirectory } from '../../files';

/**
 * One folder's fsync, settled: undefined when it succeeded, `vanished` when the folder was gone (moved away,
 * removed, or something else put in its place: a file, a FIFO, a symbolic link), else the error.
 */
type SyncOutcome = undefined | { readonly vanished: string } | Error;

/** A folder's fsync, settled to its outcome. */
function settle(folder: string, sync: Promise<void>): Promise<SyncOutcome> {
  return sync.then(
    (): SyncOutcome => undefined,
    (error: unknown): SyncOutcome =>
      isAppError(error) && (error.code === 'not_found' || error.code === 'wrong_kind')
        ? { vanished: folder }
        : error instanceof Error
          ? error
          : new Error(String(error)),
  );
}

function syncOne(folders: readonly string[]): Promise<SyncOutcome[]> {
  return Promise.all(folders.map((folder) => settle(folder, syncDirectories([folder]))));
}

/** A folder held open by the write that just finished in it (see `FolderSyncs.syncHeld`). */
export type HeldForSync = Pick<HeldDirectory, 'path' | 'sync' | 'close'>;

/**
 * The folder fsyncs of a batch of writes. A folder is fsynced as soon as every write into it has
 * finished, while the other writes still run (an fsync is mostly a wait for the disk, which then
 * overlaps their work instead of following it), if at least one of them wrote: a folder whose
 * writes all failed is not fsynced (it may not even exist, and nothing was written into it). A
 * folder whose entries a write changed without being counted into it (a folder created inside
 * it, or the same folder named another way) and every folder given by `later` are fsynced at the
 * end, after every write. `settled()` resolves once all are durable, with the folders that were
 * gone when their turn came (another program moved or removed them while the restore wrote into
 * them: what was written there is not known to be durable, nor where it is); any other failure is
 * thrown, only after every fsync has finished.
 */
export class FolderSyncs {
  readonly #pending = new Map<string, number>();
  /** Each early fsync, settled to its failure (undefined when it succeeded): none is left rejected and unobserved. */
  readonly #early: Promise<SyncOutcome[]>[] = [];
  readonly #late = new Set<string>();
  /** Folders a finished write changed: those its own write made durable need. */
  readonly #written = new Set<string>();
  /** Folders fsynced through the descriptor their last write held (not opened again by path). */
  readonly #heldSynced = new Set<string>();

  /** `folders`: the folder of each write of the batch, one item per write (a folder may repeat). */
  constructor(folders: readonly string[]) {
    for (const folder of folders) this.#pending.set(folder, (this.#pending.get(folder) ?? 0) + 1);
  }

  /** Fsyncs `folder` at the end, after every write. */
  later(folder: string): void {
    this.#late.add(folder);
  }

  /**
   * Offered by a write that just put its file into `held` (its folder, still held open): when no
   * other write into that folder is left, the folder is fsynced through that descriptor, which is
   * then closed (true: the caller hands it over), instead of being opened again by its path once
   * the write is `finished`. Otherwise false, and the caller closes it.
   */
  syncHeld(held: HeldForSync): boolean {
    if (this.#pending.get(held.path) !== 1) return false;
    this.#heldSynced.add(held.path);
    const sync = held.sync().finally(() => held.close());
    this.#early.push(settle(held.path, sync).then((outcome) => [outcome]));
    return true;
  }

  /**
   * One write into `folder` has finished, done or not; it changed the entries of `changed` (its
   * own folder among them when it wrote; none when it failed).
   */
  finished(folder: string, changed: readonly string[]): void {
    for (const other of changed) {
      if (other === folder) this.#written.add(folder);
      else this.#late.add(other);
    }
    const left = (this.#pending.get(folder) ?? 0) - 1;
    this.#pending.set(folder, left);
    if (left === 0 && this.#written.has(folder) && !this.#heldSynced.has(folder)) this.#early.push(syncOne([folder]));
  }

  /** Waits for the early fsyncs, fsyncs the rest, and throws the first failure once all have finished; the folders that were gone. */
  async settled(): Promise<ReadonlySet<string>> {
    const outcomes = (await Promise.all([...this.#early, syncOne([...this.#late])])).flat();
    const failure = outcomes.find((outcome): outcome is Error => outcome instanceof Error);
    if (failure !== undefined) throw failure;
    return new Set(
      outcomes.flatMap((outcome) => (outcome !== undefined && 'vanished' in outcome ? [outcome.vanished] : [])),
    );
  }
}
