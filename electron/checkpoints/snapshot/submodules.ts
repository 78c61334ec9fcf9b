/**
 * Where a repository's submodules are (its index's gitlink entries) and their rules inside its own:
 * git judges a submodule's files by the submodule's own index and ignore files, so a checkpoint of
 * the outer folder must too.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { repositoryTopAt } from './nested-repositories';
import type { LoadedRules } from './repo-rules';
import { StoreRules, type StoreRulesData } from './store-rules';

/**
 * The submodules inside the directory at `prefix` (top-relative, '' or ending in `/`), relative to
 * it: the index's gitlink entries below it, as git finds them (`.gitmodules` only configures them).
 */
export function submodulesBelow(gitlinks: readonly string[], prefix: string): string[] {
  return [...new Set(gitlinks.filter((item) => item.startsWith(prefix)).map((item) => item.slice(prefix.length)))];
}

/** What a nested repository's rules come from (a `RepoRulesCache` of its folder). */
export interface RulesSource {
  current(): Promise<LoadedRules>;
  /** The folders holding a `.git` that a walk found inside it (relative to it). */
  discover(folders: readonly string[]): void;
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

/** The outermost of the folders: each of the others lies inside one of them (it belongs to that repository's rules). */
function outermost(folders: readonly string[]): string[] {
  // In the order of each folder and a '/': a folder's insides come right after it.
  const sorted = folders.map((at) => `${at}/`).sort();
  const outer: string[] = [];
  for (const below of sorted) if (!below.startsWith(outer.at(-1) ?? '\0')) outer.push(below);
  return outer.map((below) => below.slice(0, -1));
}

/**
 * A repository's (or a plain folder's) rules with each nested repository's own inside them
 * (`StoreRulesData.nested`): its submodules, and the clones a walk found (`discovered`, each a
 * folder holding a `.git`, at any depth). One rules cache per outermost one, asked each time (a few
 * `stat` calls when nothing changed), which gets the clones inside it; the combined rules are kept
 * while no part's key changed. A folder whose `.git` is not a repository's top has no rules of its
 * own: its files follow the rules around it, as before (a warning names a clone's bad `.git`).
 */
export class SubmoduleRules {
  readonly #children = new Map<string, RulesSource>();
  #combined: { readonly key: string; readonly loaded: LoadedRules } | undefined;

  constructor(
    private readonly dir: string,
    private readonly open: (folder: string) => RulesSource,
  ) {}

  async around(own: LoadedRules, listed: readonly string[], discovered: readonly string[]): Promise<LoadedRules> {
    const candidates = [...new Set([...listed, ...discovered])];
    const real = await realFolders(this.dir, candidates);
    const tops = await Promise.all(
      candidates.map((at) => (real.has(at) ? repositoryTopAt(folderOf(this.dir, at)) : Promise.resolve(undefined))),
    );
    const found = new Set(discovered);
    const problems = candidates.flatMap((at, index) => {
      const top = tops[index];
      return top?.kind === 'bad' && found.has(at) ? [top.problem] : [];
    });
    const valid = candidates.filter((_, index) => tops[index]?.kind === 'repository');
    const isListed = new Set(listed);
    const children = await Promise.all(
      outermost(valid).map(async (at) => {
        const folder = folderOf(this.dir, at);
        let source = this.#children.get(at);
        if (source === undefined) {
          source = this.open(folder);
          this.#children.set(at, source);
        }
        source.discover(
          discovered.filter((item) => item.startsWith(`${at}/`)).map((item) => item.slice(at.length + 1)),
        );
        const loaded = await source.current();
        const kind = isListed.has(at) ? ('submodule' as const) : ('clone' as const);
        return loaded.repository === folder ? [{ at, kind, loaded }] : [];
      }),
    );
    const nested = children.flat();
    const key = createHash('sha1')
      .update(own.rules.key)
      .update(JSON.stringify(nested.map(({ at, kind, loaded }) => [at, kind, loaded.rules.key])))
      .update(JSON.stringify(problems))
      .digest('hex');
    if (this.#combined?.key === key) return this.#combined.loaded;
    const data: StoreRulesData = {
      ...own.rules.data,
      key,
      nested: nested.map(({ at, kind, loaded }) => ({ at, kind, rules: loaded.rules.data })),
    };
    const warnings = [...own.warnings, ...problems, ...nested.flatMap(({ loaded }) => loaded.warnings)];
    const loaded: LoadedRules = { ...own, rules: new StoreRules(data), warnings };
    this.#combined = { key, loaded };
    return loaded;
  }
}
