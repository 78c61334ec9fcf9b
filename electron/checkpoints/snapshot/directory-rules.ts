import type { Logger } from '../../logging';
import type { StoreRulesSummary } from '../checkpoint-types';
import { dirHash, statCacheFile, type StoreLayout } from '../../git-store';
import { isSameFolders, mergedFolders, rememberedFoldersFile, type FoundRepositories } from './nested-repositories';
import { RepoRulesCache, type LoadedRules, type RulesEnvironment } from './repo-rules';
import type { SnapshotEngine } from './snapshot-engine';
import type { StoreRules } from './store-rules';
import type { TrackedDirectory } from './tracked-directory';

/** One directory's rules cache, the key of the rules its last snapshot used, and the warnings already logged. */
interface Entry {
  readonly cache: RepoRulesCache;
  appliedKey: string | undefined;
  /** The repositories found inside that the rules of the last snapshot were asked with (or more recent ones). */
  appliedFound?: readonly string[];
  warned: string;
  last: StoreRules | undefined;
}

/**
 * The store rules of every checkpointed directory of one engine (see store-rules.ts): what a
 * snapshot stores, re-read only when the repository's index or ignore files change. A change of
 * rules sends the next snapshot to a full walk, so the stat cache and the tree follow the new rules.
 * Problems reading them (a damaged index, an unparsable .gitignore) are logged once, naming the file.
 */
export class DirectoryRules {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly logger: Logger,
    /** Where git's user settings are read from (default: this process's environment). */
    private readonly environment: RulesEnvironment = { env: process.env },
    adopted?: RepoRulesCache,
    /** The store's layout, to remember the repositories a walk found beside each directory's stat cache. */
    private readonly layout?: StoreLayout,
  ) {
    // A one-shot walk's head start read them already: its cache answers from what it read while nothing changed.
    if (adopted?.readsFrom(environment) === true)
      this.#entries.set(dirHash(adopted.dir), { cache: adopted, appliedKey: undefined, warned: '', last: undefined });
  }

  #entry(dir: string): Entry {
    const dirhash = dirHash(dir);
    let entry = this.#entries.get(dirhash);
    if (entry === undefined) {
      const remembered =
        this.layout === undefined ? undefined : rememberedFoldersFile(statCacheFile(this.layout, dirhash));
      const cache = new RepoRulesCache(dir, this.environment, 0, remembered);
      entry = { cache, appliedKey: undefined, warned: '', last: undefined };
      this.#entries.set(dirhash, entry);
    }
    return entry;
  }

  /**
   * The rules in force for `dir` now, with the repository and any warnings; with `found` (the folders
   * holding a `.git` that a walk of all of `dir`, or of part of it, met), rebuilt first when they differ (`discover`).
   */
  async current(dir: string, found?: FoundRepositories): Promise<LoadedRules> {
    if (found !== undefined) await this.discover(dir, mergedFolders(await this.#entry(dir).cache.discovered(), found));
    const entry = this.#entry(dir);
    const loaded = await entry.cache.current();
    entry.last = loaded.rules;
    const warned = loaded.warnings.join('\n');
    if (warned !== entry.warned) {
      entry.warned = warned;
      for (const warning of loaded.warnings) this.logger.warn(warning, { dir });
    }
    return loaded;
  }

  /**
   * Takes the folders holding a `.git` that a snapshot's walk found (sorted): when they differ from
   * those the rules were built with, the rules are rebuilt with them (and remembered for the next
   * process) and this answers true: the snapshot then walks again by the new rules.
   */
  async discover(dir: string, found: readonly string[]): Promise<boolean> {
    const { cache } = this.#entry(dir);
    if (isSameFolders(await cache.discovered(), found)) return false;
    await cache.rediscover(found);
    return true;
  }

  /**
   * A snapshot's `rediscover` for `tracked` (see `SnapshotEngine`): `discover`, then the rules it uses
   * from then on, when they differ from the ones it `used` (other folders can give the same rules: a
   * submodule's folder, found by the walk, was in them already). Asked whether or not the folders
   * differ from those the rules know now: a plan's walk may have taken the same ones since the
   * snapshot read its rules, which were then built without them.
   */
  rediscoverer(tracked: TrackedDirectory): NonNullable<SnapshotEngine['rediscover']> {
    return async (found, used) => {
      const entry = this.#entry(tracked.dir);
      const isSame = entry.appliedKey === used.key && isSameFolders(entry.appliedFound ?? [], found);
      // The rules used were built with these very folders (the common case): no second look at the rules.
      if (!(await this.discover(tracked.dir, found)) && isSame) return undefined;
      const rules = await this.forSnapshot(tracked);
      return rules.key === used.key ? undefined : rules;
    };
  }

  /** `forSnapshot` and `rediscoverer` together: what a snapshot's engine takes of the rules (a warm-up's too). */
  async snapshotRules(tracked: TrackedDirectory): Promise<Pick<SnapshotEngine, 'rules' | 'rediscover'>> {
    return { rules: await this.forSnapshot(tracked), rediscover: this.rediscoverer(tracked) };
  }

  /** The rules last read for `dir`, if any were. */
  lastKnown(dir: string): StoreRules | undefined {
    return this.#entries.get(dirHash(dir))?.last;
  }

  /** The rules a snapshot of this directory uses now; rules other than its last snapshot's make it walk the whole tree. */
  async forSnapshot(tracked: TrackedDirectory): Promise<StoreRules> {
    const entry = this.#entry(tracked.dir);
    // Taken before the rules: one taken since makes `rediscoverer` look at the rules again, never skip it.
    const found = await entry.cache.discovered();
    const { rules } = await this.current(tracked.dir);
    entry.appliedFound = found;
    if (entry.appliedKey !== rules.key) {
      if (entry.appliedKey !== undefined) tracked.needsFullScan = true;
      entry.appliedKey = rules.key;
    }
    return rules;
  }
}

/** The rules in a few words, for the store's status. */
export function summarizeRules(loaded: LoadedRules): StoreRulesSummary {
  const { rules, repository, warnings } = loaded;
  const nested = rules.nestedRepositories();
  const repositories = nested.length === 0 ? {} : { nested };
  if (!rules.data.isRepository)
    return {
      kind: 'built-in',
      ...(repository !== undefined && { repository }),
      ...repositories,
      warnings: [...warnings],
    };
  return {
    kind: 'repository',
    repository: repository ?? '',
    tracked: rules.trackedCount(),
    ...repositories,
    warnings: [...warnings],
  };
}
