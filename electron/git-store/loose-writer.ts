import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectType } from './git-objects';
import { writeLooseFile } from './loose-objects';
import type { UnsyncedObjects } from './unsynced-objects';

/**
 * Writes new loose objects into `objects/` (temp + rename, read-only, like git) and notes each, with
 * the fan-out folders it made, as unsynced: the store's `syncWritten` makes them durable before any
 * ref names them. Which fan-out folders exist is remembered, so a folder is made once per process.
 */
export class LooseWriter {
  readonly #fanDirs = new Set<string>();

  constructor(
    private readonly objectsDir: string,
    private readonly unsynced: UnsyncedObjects,
  ) {}

  /** Notes a fan-out folder known to exist (listed by a preload): no `mkdir` for it. */
  knowFan(fan: string): void {
    this.#fanDirs.add(fan);
  }

  /**
   * Writes `content` as the loose object `oid` at `file`, noted unsynced under the store lock hold
   * numbered `hold` (read by the caller before any wait: a handle is not kept once its hold ended).
   */
  async write(oid: string, file: string, type: ObjectType, content: Uint8Array, hold: number): Promise<void> {
    const fan = oid.slice(0, 2);
    const fanDir = path.join(this.objectsDir, fan);
    if (!this.#fanDirs.has(fan)) {
      if ((await mkdir(fanDir, { recursive: true })) !== undefined) this.unsynced.addFan(fan);
      this.#fanDirs.add(fan);
    }
    // A small batch (a checkpoint's few objects) keeps its handles for the fsync; a big one closes as it goes.
    const isHeld = this.unsynced.claimHold();
    try {
      this.unsynced.note(oid, await writeLooseFile(fanDir, file, type, content, isHeld), hold);
    } finally {
      if (isHeld) this.unsynced.endClaim();
    }
  }
}
