/**
 * fsyncs a checkpoint started but did not wait for (its ref folder's, once the ref moved): the
 * request does the rest of its work under the store lock while they run, and lets the lock go and
 * answers only once every one has finished (so the next holder, of any process, never reads a head a
 * power cut could take back). A failed one fails the request, as if awaited in place.
 */
export class DeferredSyncs {
  readonly #pending: Promise<void>[] = [];

  /** `work`'s outcome with a fresh set of deferred fsyncs, once they have all settled (see `around`). */
  static run<T>(work: (syncs: DeferredSyncs) => Promise<T>): Promise<T> {
    const syncs = new DeferredSyncs();
    return syncs.around(work(syncs));
  }

  /** Takes one fsync under way (its failure is reported by `around`, never as an unhandled rejection). */
  readonly add = (synced: Promise<void>): void => {
    synced.catch(() => undefined);
    this.#pending.push(synced);
  };

  /** `work`'s outcome, once it and every fsync added meanwhile have settled; a failed fsync fails it. */
  async around<T>(work: Promise<T>): Promise<T> {
    const value = await work.finally(() => Promise.allSettled(this.#pending));
    await Promise.all(this.#pending);
    return value;
  }
}
