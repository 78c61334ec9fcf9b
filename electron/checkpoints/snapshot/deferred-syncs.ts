/**
 * fsyncs a checkpoint started but did not wait for (its ref folder's, once the ref moved): the
 * request does the rest of its work under the store lock, and releases it, while they run, and
 * answers only once every one has finished. A failed one fails the request, as if awaited in place.
 */
export class DeferredSyncs {
  readonly #pending: Promise<void>[] = [];

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
