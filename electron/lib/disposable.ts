/**
 * Undoes what set it up (a subscription, timer, watcher, lock or open resource); its owner calls it
 * exactly once. `Disposer<void>` is one that finishes at once; by default it may return a promise to await.
 */
export type Disposer<Done extends void | Promise<void> = void | Promise<void>> = () => Done;

/** Collects disposers and runs them in reverse order of registration. */
export class DisposableStack {
  readonly #disposers: Disposer[] = [];
  #isDisposed = false;

  /** Registers a disposer; if the stack is already disposed it runs at once. */
  add(disposer: Disposer): void {
    if (this.#isDisposed) {
      void disposer();
      return;
    }
    this.#disposers.push(disposer);
  }

  /** Runs every disposer, newest first; one that throws does not stop the others. */
  async dispose(): Promise<void> {
    if (this.#isDisposed) return;
    this.#isDisposed = true;
    const errors: unknown[] = [];
    for (const disposer of this.#disposers.reverse()) {
      try {
        await disposer();
      } catch (error) {
        errors.push(error);
      }
    }
    this.#disposers.length = 0;
    if (errors.length > 0) throw new AggregateError(errors, 'Some resources failed to close');
  }
}
