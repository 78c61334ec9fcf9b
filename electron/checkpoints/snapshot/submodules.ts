/**
 * Where a repository's submodules are (its index's gitlink entries) and their rules inside its own:
 * git judges a submodule's files by the submodule's own index and ignore files, so a checkpoint of
 * the outer folder must too.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedRules } from './repo-rules';
import { StoreRules, type StoreRulesData } from './store-rules';

/**
 * The submodules inside the directory at `prefix` (top-relative, '' or ending in `/`), relative to
 * it: the index's gitlink entries below it, as git finds them (`.gitmodules` only configures them).
 */
export function submodulesBelow(gitlinks: readonly string[], prefix: string): string[] {
  return [...new Set(gitlinks.filter((item) => item.startsWith(prefix)).map((item) => item.slice(prefix.length)))];
}

/** What a submodule's rules come from (a `RepoRulesCache` of its folder). */
export interface RulesSource {
  current(): Promise<LoadedRules>;
}

/**
 * Which of the submodules' folders are real folders now, not reached through a symbolic link (the
 * walk would not go in, and a link back up would never end). Asked at every checkpoint: a folder
 * removed and checked out again changes no file the rules' fingerprint covers.
 */
async function realFolders(dir: string, submodules: readonly string[]): Promise<ReadonlySet<string>> {
  const top = await realpath(dir).catch(() => undefined);
  if (top === undefined) return new Set();
  const real = await Promise.all(submodules.map((at) => realpath(folderOf(dir, at)).catch(() => undefined)));
  return new Set(submodules.filter((at, index) => real[index] === folderOf(top, at)));
}

function folderOf(dir: string, at: string): string {
  return path.join(dir, ...at.split('/'));
}

/**
 * A repository's rules with each submodule's own inside them (`StoreRulesData.nested`): one rules
 * cache per submodule, asked each time (a few `stat` calls when nothing changed), and the combined
 * rules kept while no part's key changed. A submodule not checked out (no `.git` in its folder) has
 * no rules of its own: its folder follows the outer repository's, as before.
 */
export class SubmoduleRules {
  readonly #children = new Map<string, RulesSource>();
  #combined: { readonly key: string; readonly loaded: LoadedRules } | undefined;

  constructor(
    private readonly dir: string,
    private readonly open: (folder: string) => RulesSource,
  ) {}

  async around(own: LoadedRules, listed: readonly string[]): Promise<LoadedRules> {
    const real = await realFolders(this.dir, listed);
    const submodules = listed.filter((at) => real.has(at));
    const children = await Promise.all(
      submodules.map(async (at) => {
        const folder = folderOf(this.dir, at);
        let source = this.#children.get(at);
        if (source === undefined) {
          source = this.open(folder);
          this.#children.set(at, source);
        }
        const loaded = await source.current();
        return loaded.repository === folder ? [{ at, loaded }] : [];
      }),
    );
    const nested = children.flat();
    const key = createHash('sha1')
      .update(own.rules.key)
      .update(JSON.stringify(nested.map(({ at, loaded }) => [at, loaded.rules.key])))
      .digest('hex');
    if (this.#combined?.key === key) return this.#combined.loaded;
    const data: StoreRulesData = {
      ...own.rules.data,
      key,
      nested: nested.map(({ at, loaded }) => ({ at, rules: loaded.rules.data })),
    };
    const warnings = [...own.warnings, ...nested.flatMap(({ loaded }) => loaded.warnings)];
    const loaded: LoadedRules = { ...own, rules: new StoreRules(data), warnings };
    this.#combined = { key, loaded };
    return loaded;
  }
}
