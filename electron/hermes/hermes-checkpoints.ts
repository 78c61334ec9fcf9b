import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type CheckpointEntry, checkpointStats, type CheckpointStats, type KnownBlobs, Timeline } from '../checkpoints';
import { ObjectStore } from '../git-store';
import type { Logger } from '../logging';
import { GitRefReader } from './git-ref-reader';
import { hermesEntry, mergeNewestFirst, unknownStats, type HermesCommit } from './hermes-entry';
import { hermesHomes, type HermesHomePaths } from './hermes-home';
import {
  listHermesDirectories,
  locateHermesTimelines,
  type HermesDirectoryRecord,
  type HermesTimelineSource,
} from './hermes-store-locator';

/** Hermes's commits come with no line counts of their own: stats read the blobs. */
const nothingKnown: KnownBlobs = { blobs: new Map(), changes: new Map() };

/** Timelines kept in memory (and watched for new checkpoints): the directories read most recently. */
const maxRememberedDirectories = 64;

/** A chain longer than this is cut (Hermes keeps 20–50 per directory; this only stops a damaged loop). */
const maxChainLength = 10_000;

/** Where the Hermes homes are found. */
export interface HermesCheckpointsOptions {
  /** The environment (`HERMES_HOME`, `HERMES_DATA_DIR_SUFFIX`, `LOCALAPPDATA`). */
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** The user's home directory (default os.homedir()); tests point it elsewhere. */
  readonly home?: string;
  readonly platform?: NodeJS.Platform;
}

/** One Hermes git directory, opened read-only. */
interface OpenedStore {
  readonly objects: ObjectStore;
  readonly refs: GitRefReader;
  readonly timeline: Timeline;
}

/** A directory's Hermes timeline as last read, and the heads it was read from. */
interface CachedTimeline {
  readonly key: string;
  readonly commits: readonly HermesCommit[];
}

/** Whether a git directory uses SHA-256 object ids, which Vigil's object reader does not read. */
async function isSha256Store(gitdir: string): Promise<boolean> {
  const config = await readFile(path.join(gitdir, 'config'), 'utf8').catch(() => '');
  return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config);
}

/**
 * The checkpoints Hermes Agent has recorded, read straight from its stores and never written:
 * discovery of `$HERMES_HOME` (else the platform default) and its profiles, both layouts (the
 * shared store and pre-v2 shadow repositories), loose and packed objects and refs. A directory's
 * timeline is read again only when one of its heads moved (a few small file reads per call);
 * commits, their stats and objects are cached, since git objects never change.
 */
export class HermesCheckpoints {
  readonly #options: HermesCheckpointsOptions;
  readonly #stores = new Map<string, OpenedStore | undefined>();
  readonly #timelines = new Map<string, CachedTimeline>();
  readonly #stats = new Map<string, CheckpointStats>();
  /** Stores in the order objects were last found in them: a diff reads mostly from one. */
  #recent: string[] = [];

  constructor(options: HermesCheckpointsOptions) {
    this.#options = options;
  }

  /** The Hermes homes looked at now (the environment's, and its named profiles). */
  homes(): Promise<readonly HermesHomePaths[]> {
    return hermesHomes(this.#options.env, this.#options.home, this.#options.platform);
  }

  /** Every Hermes commit of a directory (resolved absolute path) across its timelines, newest first. */
  async commits(dir: string): Promise<readonly HermesCommit[]> {
    const sources = await locateHermesTimelines(await this.homes(), dir);
    const heads = await Promise.all(
      sources.map(async (source) => ({
        source,
        store: await this.#open(source.gitdir),
        head: await this.#head(source),
      })),
    );
    const key = heads.map((item) => `${item.source.gitdir}@${item.head ?? '-'}`).join('|');
    const cached = this.#timelines.get(dir);
    // Most recently read last, so the oldest is dropped first when there are too many.
    this.#timelines.delete(dir);
    if (cached?.key === key) {
      this.#timelines.set(dir, cached);
      return cached.commits;
    }
    const chains = await Promise.all(
      heads.map(async (item) =>
        item.store === undefined || item.head === undefined ? [] : this.#walk(item.source, item.store, item.head),
      ),
    );
    const commits = mergeNewestFirst(chains, (commit) => commit.commit.time);
    this.#timelines.set(dir, { key, commits });
    const oldest = this.#timelines.keys().next().value;
    if (this.#timelines.size > maxRememberedDirectories && oldest !== undefined) this.#timelines.delete(oldest);
    return commits;
  }

  /** A directory's Hermes checkpoints as timeline entries, newest first; stats as far as already computed. */
  async entries(dir: string): Promise<CheckpointEntry[]> {
    const commits = await this.commits(dir);
    return commits.map((item) => hermesEntry(dir, item, commits, this.#stats.get(item.id) ?? unknownStats));
  }

  /** The entry with its change stats against its parent (computed once per commit, like `git diff --shortstat`). */
  async withStats(entry: CheckpointEntry): Promise<CheckpointEntry> {
    if (entry.source !== 'hermes') return entry;
    const known = this.#stats.get(entry.id);
    if (known !== undefined) return { ...entry, stats: known };
    const found = await this.#storeHolding(entry.id);
    if (found === undefined) return entry;
    const parentTree =
      entry.parent === undefined
        ? undefined
        : await found.timeline.commit(entry.parent).then(
            (parent) => parent.tree,
            () => undefined,
          );
    const stats = await checkpointStats(found.objects, parentTree, entry.tree, nothingKnown);
    this.#stats.set(entry.id, stats);
    return { ...entry, stats };
  }

  /**
   * An object's content from whichever opened Hermes store holds it, or undefined when none does.
   * `isThorough` also re-reads every store's packs first (Hermes may be in the middle of a gc).
   */
  async readObject(oid: string, type: 'tree' | 'blob', isThorough = true): Promise<Buffer | undefined> {
    const found = await this.#storeHolding(oid, isThorough);
    return found?.objects.readTyped(oid, type);
  }

  /** The git directory a commit was read from (for its store's ignore rules), if known. */
  async gitdirOf(dir: string, id: string): Promise<string | undefined> {
    return (await this.commits(dir)).find((item) => item.id === id)?.gitdir;
  }

  /** The directories whose Hermes timelines were read lately (the ones someone looked at; at most 64). */
  readDirectories(): readonly string[] {
    return [...this.#timelines.keys()];
  }

  /** A directory's Hermes commits as last read (what was last shown), without looking again. */
  lastRead(dir: string): readonly HermesCommit[] | undefined {
    return this.#timelines.get(dir)?.commits;
  }

  /** Every directory Hermes holds checkpoints of, with its count and newest checkpoint. */
  async directories(): Promise<
    readonly (HermesDirectoryRecord & { readonly head?: string; readonly count: number; readonly newest?: string })[]
  > {
    const records = await listHermesDirectories(await this.homes());
    const out = [];
    for (const record of records) {
      const commits = await this.commits(path.resolve(record.dir)).catch(() => []);
      if (commits.length === 0) continue;
      const newest = commits[0];
      out.push({
        ...record,
        count: commits.length,
        head: newest?.id,
        newest: newest && new Date(newest.commit.time * 1000).toISOString(),
      });
    }
    return out;
  }

  /** Closes every pack handle. */
  async dispose(): Promise<void> {
    const stores = [...this.#stores.values()];
    this.#stores.clear();
    this.#timelines.clear();
    this.#recent = [];
    await Promise.all(stores.map((store) => (store === undefined ? Promise.resolve() : store.objects.close())));
  }

  async #open(gitdir: string): Promise<OpenedStore | undefined> {
    if (this.#stores.has(gitdir)) {
      const opened = this.#stores.get(gitdir);
      await opened?.objects.refresh();
      return opened;
    }
    if (await isSha256Store(gitdir)) {
      this.#options.logger.warn(
        'a Hermes checkpoint store uses SHA-256 object ids, which Vigil cannot read yet; its checkpoints are not shown',
        { gitdir },
      );
      this.#stores.set(gitdir, undefined);
      return undefined;
    }
    const objects = new ObjectStore(gitdir);
    await objects.refresh(true);
    const opened = { objects, refs: new GitRefReader(gitdir), timeline: new Timeline(objects) };
    this.#stores.set(gitdir, opened);
    this.#recent.push(gitdir);
    return opened;
  }

  async #head(source: HermesTimelineSource): Promise<string | undefined> {
    const store = this.#stores.get(source.gitdir);
    if (store === undefined) return undefined;
    return store.refs.resolve(source.ref).catch((error: unknown) => {
      this.#options.logger.warn('could not read a Hermes checkpoint ref', {
        gitdir: source.gitdir,
        ref: source.ref,
        error,
      });
      return undefined;
    });
  }

  /** A timeline's commits from its head along first parents, newest first; a damaged chain ends where it breaks. */
  async #walk(source: HermesTimelineSource, store: OpenedStore, head: string): Promise<HermesCommit[]> {
    const out: HermesCommit[] = [];
    const seen = new Set<string>();
    let id: string | undefined = head;
    while (id !== undefined && !seen.has(id) && out.length < maxChainLength) {
      seen.add(id);
      try {
        const commit = await store.timeline.commit(id);
        out.push({ id, commit, gitdir: source.gitdir, kind: source.kind });
        id = commit.parents[0];
      } catch (error) {
        this.#options.logger.warn('a Hermes checkpoint timeline ends early: a commit cannot be read', {
          gitdir: source.gitdir,
          commit: id,
          error,
        });
        id = undefined;
      }
    }
    return out;
  }

  /** The opened store holding an object: most recently used first, then every store again after re-reading its packs (Hermes may be mid-gc). */
  async #storeHolding(oid: string, isThorough = true): Promise<OpenedStore | undefined> {
    for (const isRetry of isThorough ? [false, true] : [false]) {
      for (const gitdir of this.#recent) {
        const store = this.#stores.get(gitdir);
        if (store === undefined) continue;
        if (isRetry) await store.objects.refresh(true);
        if (await store.objects.has(oid)) {
          this.#recent = [gitdir, ...this.#recent.filter((other) => other !== gitdir)];
          return store;
        }
      }
    }
    return undefined;
  }
}
