import { access, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode } from '../files';
import { DecodedTrees } from './decoded-trees';
import {
  decodeTree,
  hashObject,
  typeOfMode,
  type ObjectType,
  type StoredTreeEntry,
  type TreeItem,
} from './git-objects';
import { PackFile, type PackedObject } from './pack-file';
import { PackIndex } from './pack-index';
import { isLooseObjectName, parseLooseObject } from './loose-objects';
import { LooseWriter } from './loose-writer';
import { RecentObjects } from './recent-objects';
import { inflateObject } from './object-zlib';
import { UnsyncedObjects } from './unsynced-objects';

/** An object read from the store. */
export type StoredObject = PackedObject;

/**
 * The objects of a bare git directory: loose files and packs (deltas included) for reading,
 * loose files (temp + rename, read-only, like git) for small writes. Pack writing for big batches
 * is PackWriter's job. Readers may run without the store lock: a pack or loose object that
 * vanishes under them (packed or pruned by another process) is looked up again.
 */
export class ObjectStore {
  readonly objectsDir: string;
  readonly packDir: string;
  readonly #packs = new Map<string, PackFile>();
  /** The last refresh or close (settled): the next one starts after it (see `#inTurn`). */
  #turn: Promise<void> = Promise.resolve();
  #packDirStamp = -1;
  #loose: Set<string> | undefined;
  /** Recently read or written small objects. */
  readonly #recent = new RecentObjects();
  /** Loose objects this process wrote (or had a worker write) and has not fsynced yet, with the fan-out folders made for them. */
  readonly #unsynced: UnsyncedObjects;
  readonly #looseWriter: LooseWriter;
  readonly #decodedTrees = new DecodedTrees();

  constructor(
    readonly gitdir: string,
    /** Told which files `syncWritten` made durable (diagnostics and tests). */
    private readonly onSynced?: (files: readonly string[]) => void,
  ) {
    this.objectsDir = path.join(gitdir, 'objects');
    this.packDir = path.join(this.objectsDir, 'pack');
    this.#unsynced = new UnsyncedObjects(this.objectsDir, (oid) => this.loosePath(oid));
    this.#looseWriter = new LooseWriter(this.objectsDir, this.#unsynced);
  }

  /** The packs currently known. */
  get packs(): readonly PackFile[] {
    return [...this.#packs.values()];
  }

  /**
   * Re-reads the pack folder when it changed: new packs are opened, vanished ones closed. Calls run
   * one after another: two at once would both open a new pack, and the handle of one would leak.
   */
  refresh(force = false): Promise<void> {
    return this.#inTurn(() => this.#refresh(force));
  }

  /** Runs `task` once the refresh or close before it has settled; the next one waits for it in turn. */
  #inTurn(task: () => Promise<void>): Promise<void> {
    const run = this.#turn.then(task);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #refresh(force: boolean): Promise<void> {
    const stamp = await stat(this.packDir).then(
      (info) => info.mtimeMs,
      () => 0,
    );
    if (!force && stamp === this.#packDirStamp) return;
    this.#packDirStamp = stamp;
    const names = new Set(
      (await readdir(this.packDir).catch(() => [] as string[]))
        .filter((name) => /^pack-[0-9a-f]{40}\.idx$/.test(name))
        .map((name) => name.slice(0, -4)),
    );
    for (const [name, pack] of this.#packs) {
      if (names.has(name)) continue;
      this.#packs.delete(name);
      await pack.close().catch(() => undefined);
    }
    for (const name of names) {
      if (this.#packs.has(name)) continue;
      try {
        const index = new PackIndex(await readFile(path.join(this.packDir, `${name}.idx`)));
        this.#packs.set(name, await PackFile.open(path.join(this.packDir, `${name}.pack`), name, index));
      } catch {
        // A pack without its data, being deleted right now, or damaged: skip it (repair deals with leftovers).
      }
    }
  }

  /**
   * Lists every loose object once, so that `has` needs no system call per object (used while the
   * store lock is held, when no one else writes); `forgetLoose` drops the list.
   */
  async preloadLoose(): Promise<void> {
    const found = new Set<string>();
    const fans = await readdir(this.objectsDir).catch(() => [] as string[]);
    await Promise.all(
      fans
        .filter((fan) => /^[0-9a-f]{2}$/.test(fan))
        .map(async (fan) => {
          this.#looseWriter.knowFan(fan);
          for (const name of await readdir(path.join(this.objectsDir, fan)).catch(() => [] as string[])) {
            if (isLooseObjectName(name)) found.add(fan + name);
          }
        }),
    );
    this.#loose = found;
  }

  /** Stops trusting the preloaded loose list (call when the store lock is released). */
  forgetLoose(): void {
    this.#loose = undefined;
  }

  /** Whether one of the known packs holds an object (no I/O). */
  hasPacked(oid: string): boolean {
    return this.#findPacked(oid) !== undefined;
  }

  /** Whether the store holds an object. */
  async has(oid: string): Promise<boolean> {
    if (this.#findPacked(oid) !== undefined) return true;
    if (this.#loose !== undefined) return this.#loose.has(oid);
    return access(this.loosePath(oid)).then(
      () => true,
      () => false,
    );
  }

  /** Where a loose object lives. */
  loosePath(oid: string): string {
    return path.join(this.objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  /** Reads an object; `not_found` when the store does not hold it. */
  async read(oid: string): Promise<StoredObject> {
    const cached = this.#recent.get(oid);
    if (cached !== undefined) return cached;
    const found = (await this.#tryRead(oid)) ?? (await this.refresh(true).then(() => this.#tryRead(oid)));
    if (found !== undefined) {
      this.#recent.remember(oid, found);
      return found;
    }
    throw new AppError(
      'not_found',
      `The checkpoint store has no object ${oid}. It may have been pruned; run "vigil checkpoints status".`,
      { oid },
    );
  }

  /** Reads an object that must be of a given type. */
  async readTyped(oid: string, type: ObjectType): Promise<Buffer> {
    const object = await this.read(oid);
    if (object.type !== type)
      throw new AppError('wrong_kind', `Object ${oid} is a ${object.type}, not a ${type}.`, { oid });
    return object.content;
  }

  /** Reads a tree's entries (decoded once, then kept: a tree never changes); `not_found` or `wrong_kind` as `readTyped`. */
  async readTree(oid: string): Promise<readonly StoredTreeEntry[]> {
    const kept = this.#decodedTrees.get(oid);
    if (kept !== undefined) return kept;
    return this.#keepTree(oid, decodeTree(await this.readTyped(oid, 'tree')));
  }

  /** Keeps the entries of a tree just built (in git's order), so that reading it back needs no decoding. */
  rememberTree(oid: string, items: readonly TreeItem[]): void {
    if (this.#decodedTrees.get(oid) === undefined) this.#keepTree(oid, items);
  }

  #keepTree(oid: string, items: readonly TreeItem[]): readonly StoredTreeEntry[] {
    // Built field by field: an object spread per entry cost ~7 ms of a restore's pre-rollback snapshot (101 trees of 100 entries).
    const entries = Object.freeze(
      items.map((item) => ({ mode: item.mode, name: item.name, oid: item.oid, type: typeOfMode(item.mode) })),
    );
    this.#decodedTrees.set(oid, entries);
    return entries;
  }

  /**
   * Writes an object as a loose file unless the store already holds it; returns its id. A loose copy already
   * there (maybe a failed or killed checkpoint's, never fsynced) is fsynced with this write's; packs are durable.
   */
  async writeLoose(type: ObjectType, content: Uint8Array, knownOid?: string): Promise<string> {
    const hold = this.#unsynced.hold; // read before any wait: a handle is not kept once its hold ended
    const oid = knownOid ?? hashObject(type, content);
    if (await this.has(oid)) {
      if (!this.hasPacked(oid)) this.#unsynced.note(oid);
      return oid;
    }
    await this.#looseWriter.write(oid, this.loosePath(oid), type, content, hold);
    this.#loose?.add(oid);
    this.#recent.remember(oid, { type, content: Buffer.from(content) });
    return oid;
  }

  /**
   * Notes loose objects a worker thread may just have written (this store did not write them itself),
   * and the fan-out folders it made for them (only the writer knows), to be made durable in `objects/`.
   */
  noteWrittenElsewhere(oids: Iterable<string>, newFans: Iterable<string> = []): void {
    for (const oid of oids) this.#unsynced.note(oid);
    for (const fan of newFans) this.#unsynced.addFan(fan);
  }

  /** The store lock hold ends: kept handles are closed, their objects fsynced by name (see UnsyncedObjects). */
  endHold(): void {
    this.#unsynced.endHold();
  }

  /**
   * Makes every loose object this process wrote since the last call durable: each file, then its
   * fan-out folder and, for new fan-outs, `objects/` itself (a folder fsynced before its file's data
   * could name an empty file after a power cut); the ref moves only after all of them. Snapshots do not fsync loose
   * objects as they go (too slow); every checkpoint calls this once before its ref moves, so an
   * acknowledged checkpoint (and a restore's pre-rollback snapshot) survives a power cut. An object
   * already gone was packed (packs are fsynced when written), and its folder may be gone with it.
   */
  async syncWritten(): Promise<void> {
    const synced = await this.#unsynced.sync();
    this.onSynced?.(synced);
  }

  /** Forgets the unsynced list: its objects were all packed (and the pack fsynced) by a garbage collection. */
  forgetUnsynced(): void {
    this.#unsynced.forget();
  }

  /** Keeps an object just written elsewhere (into a pack) in memory, when small: it is about to be read back. */
  remember(oid: string, type: ObjectType, content: Uint8Array): void {
    this.#recent.remember(oid, { type, content: Buffer.from(content) });
  }

  /**
   * Closes every pack handle, in turn with the refreshes: one under way finishes first, so it cannot
   * open a pack again after the close.
   */
  close(): Promise<void> {
    return this.#inTurn(() => this.#close());
  }

  async #close(): Promise<void> {
    this.#unsynced.close();
    const packs = [...this.#packs.values()];
    this.#packs.clear();
    this.#packDirStamp = -1;
    await Promise.all(packs.map((pack) => pack.close().catch(() => undefined)));
  }

  #findPacked(oid: string): { pack: PackFile; offset: number } | undefined {
    for (const pack of this.#packs.values()) {
      const offset = pack.index.find(oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  }

  async #tryRead(oid: string): Promise<StoredObject | undefined> {
    const packed = this.#findPacked(oid);
    if (packed !== undefined) {
      try {
        return await packed.pack.readAt(packed.offset, (base) => this.read(base));
      } catch (error) {
        if (errnoCode(error) === undefined) throw error;
        return undefined;
      }
    }
    let compressed: Buffer;
    try {
      compressed = await readFile(this.loosePath(oid));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    return parseLooseObject(oid, await inflateObject(compressed));
  }
}
