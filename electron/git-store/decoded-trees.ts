import type { StoredTreeEntry } from './git-objects';

/** About this many entries (of all trees together) are kept decoded. */
const entryBudget = 50_000;

/**
 * Trees recently decoded, by id. A tree never changes, so an entry never goes stale: a restore's
 * plan, its scope check and the diffs around it walk the same few hundred trees, and each is
 * parsed once instead of once per walk. The oldest trees go first when the budget is spent.
 */
export class DecodedTrees {
  readonly #trees = new Map<string, readonly StoredTreeEntry[]>();
  #entries = 0;

  /** The decoded tree `oid`, if kept. */
  get(oid: string): readonly StoredTreeEntry[] | undefined {
    return this.#trees.get(oid);
  }

  /** Keeps a decoded tree (a tree bigger than the whole budget is not kept). */
  set(oid: string, entries: readonly StoredTreeEntry[]): void {
    if (entries.length > entryBudget || this.#trees.has(oid)) return;
    this.#trees.set(oid, entries);
    this.#entries += entries.length + 1;
    for (const [key, value] of this.#trees) {
      if (this.#entries <= entryBudget) break;
      this.#trees.delete(key);
      this.#entries -= value.length + 1;
    }
  }
}
