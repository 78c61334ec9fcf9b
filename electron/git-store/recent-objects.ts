import type { PackedObject } from './pack-file';

/** Objects up to this size are kept in memory after they are read or written (trees, commits, small blobs). */
const maxCachedObjectBytes = 64 * 1024;
/** The memory cache's total budget. */
const cacheBudgetBytes = 32 * 1024 * 1024;

/**
 * Recently read or written small objects, oldest dropped first past the budget. Objects never
 * change, so an entry never goes stale.
 */
export class RecentObjects {
  readonly #objects = new Map<string, PackedObject>();
  #bytes = 0;

  /** The object, when it is kept. */
  get(oid: string): PackedObject | undefined {
    return this.#objects.get(oid);
  }

  /** Keeps a small object (trees and commits are read again by stats and listings). */
  remember(oid: string, object: PackedObject): void {
    if (object.content.length > maxCachedObjectBytes || this.#objects.has(oid)) return;
    this.#objects.set(oid, object);
    this.#bytes += object.content.length + 64;
    for (const [key, value] of this.#objects) {
      if (this.#bytes <= cacheBudgetBytes) break;
      this.#objects.delete(key);
      this.#bytes -= value.content.length + 64;
    }
  }
}
