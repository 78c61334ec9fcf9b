import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../files';
import { syncFileIfPresent, syncFolderIfPresent } from './durable-file';

/** How many written loose objects keep their handle open until the next sync (a checkpoint writes about five). */
const heldHandleLimit = 32;

/**
 * The loose objects a store wrote and has not made durable yet: their ids, the fan-out folders
 * made for them, and the open handles of the first few written, so that their fsync needs no
 * reopening by name (an open and a close fewer per object, each a trip through the thread pool).
 * An fsync through the write's own handle makes the same file durable as one through a new handle
 * only while the store lock hold that wrote it lasts: between two holds another process may delete
 * the object and write it again (a new file at the name), so `endHold` closes the handles when a
 * hold ends and their objects are fsynced by name.
 */
export class UnsyncedObjects {
  readonly #oids = new Set<string>();
  readonly #newFans = new Set<string>();
  readonly #held = new Map<string, FileHandle>();
  /** Writes under way that may keep their handle. */
  #claims = 0;
  /** Counts the store lock holds ended (see `endHold`): a handle written under an earlier hold is not kept. */
  #hold = 0;
  #isClosed = false;

  constructor(
    private readonly objectsDir: string,
    private readonly loosePath: (oid: string) => string,
  ) {}

  /** Whether the object about to be written may keep its handle open for its fsync; a true claims a place until `endClaim`. */
  claimHold(): boolean {
    if (this.#isClosed) return false;
    if (this.#held.size + this.#claims >= heldHandleLimit) return false;
    this.#claims += 1;
    return true;
  }

  /** Gives back a place `claimHold` gave (the write is done: its handle, if any, was noted). */
  endClaim(): void {
    this.#claims -= 1;
  }

  /** The current hold's number, read before a write whose handle is kept and given back to `note`. */
  get hold(): number {
    return this.#hold;
  }

  /**
   * Notes a loose object written, with the handle its write kept open, under the hold numbered `hold`.
   * An object written twice (two writes of one id at once, the later rename replacing the earlier
   * file) keeps no handle: which file its name holds now is not known, so its fsync reopens it by
   * name. Nor does one whose hold has ended, or given after `close`: its handle is closed at once.
   */
  note(oid: string, handle?: FileHandle, hold = this.#hold): void {
    const isAgain = this.#oids.has(oid);
    this.#oids.add(oid);
    if (!isAgain && !this.#isClosed && hold === this.#hold) {
      if (handle !== undefined) this.#held.set(oid, handle);
      return;
    }
    for (const open of [handle, this.#held.get(oid)]) void open?.close().catch(() => undefined);
    this.#held.delete(oid);
  }

  /** Notes a fan-out folder this process made, to be made durable in `objects/`. */
  addFan(fan: string): void {
    this.#newFans.add(fan);
  }

  /**
   * Makes every object noted since the last call durable: each file, then its fan-out folder and,
   * for new fan-outs, `objects/`; resolves to the paths made durable, in that order. When any
   * fsync fails, nothing of the batch counts: it is all fsynced again at the next call.
   */
  async sync(): Promise<string[]> {
    const oids = [...this.#oids];
    const newFans = [...this.#newFans];
    const held = new Map(this.#held);
    this.#oids.clear();
    this.#newFans.clear();
    this.#held.clear();
    const folders = [...new Set(oids.map((oid) => path.dirname(this.loosePath(oid))))];
    if (newFans.length > 0) folders.push(this.objectsDir);
    const synced: string[] = [];
    const syncObject = async (oid: string): Promise<void> => {
      const file = this.loosePath(oid);
      const handle = held.get(oid);
      held.delete(oid);
      if (await syncObjectFile(file, handle)) synced.push(file);
    };
    // The files' data first, then the folders that name them. A folder made durable first could name
    // an empty file after a power cut (ext4 allocates a new file's blocks late), which the next
    // checkpoint would take as stored, since a loose object that exists is not written again.
    const files = await Promise.allSettled([mapLimit(oids, 32, syncObject)]);
    const outcomes = files.some((outcome) => outcome.status === 'rejected')
      ? files
      : await Promise.allSettled([
          mapLimit(folders, 32, async (folder) => (await syncFolderIfPresent(folder)) && synced.push(folder)),
        ]);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) {
      // Handles no fsync took are closed; the next call reopens their files by name.
      await Promise.all([...held.values()].map((handle) => handle.close().catch(() => undefined)));
      for (const oid of oids) this.#oids.add(oid);
      for (const fan of newFans) this.#newFans.add(fan);
      throw failed.reason;
    }
    return synced;
  }

  /** Forgets every object noted (a collection packed them all and fsynced the pack), closing their handles. */
  forget(): void {
    this.#oids.clear();
    this.#closeHeld();
  }

  /**
   * The store lock hold that wrote the noted objects ended: closes their handles (the objects stay
   * noted and are fsynced by name), since another process may replace a file before the next hold.
   */
  endHold(): void {
    this.#hold += 1;
    this.#closeHeld();
  }

  /** Closes the held handles for good (the store closes); their objects stay noted. A handle noted later is closed at once. */
  close(): void {
    this.#isClosed = true;
    this.#closeHeld();
  }

  #closeHeld(): void {
    for (const handle of this.#held.values()) void handle.close().catch(() => undefined);
    this.#held.clear();
  }
}

/** fsyncs one loose object through its write's handle (then closes it), else reopened by name; false when the file is gone. */
async function syncObjectFile(file: string, handle: FileHandle | undefined): Promise<boolean> {
  if (handle === undefined) return syncFileIfPresent(file);
  try {
    await handle.sync();
    return true;
  } finally {
    await handle.close();
  }
}
