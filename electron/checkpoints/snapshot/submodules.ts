/**
 * Where a repository's submodules are, from its `.gitmodules` (each `path = …` of a `[submodule]`
 * section, in git's config syntax) checked against its index: git judges a submodule's files by the
 * submodule's own index and ignore files, so a checkpoint of the outer folder must too.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { readGitFile } from './git-files';
import type { LoadedRules } from './repo-rules';
import { StoreRules, type StoreRulesData } from './store-rules';

/** The value of a config line after `=`: quotes removed and git's escapes (`\"`, `\\`, `\t`, `\n`) undone; a comment ends it. */
function configValue(raw: string): string {
  let value = '';
  let isQuoted = false;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index] as string;
    if (char === '\\' && index + 1 < raw.length) {
      const next = raw[(index += 1)] as string;
      value += next === 't' ? '\t' : next === 'n' ? '\n' : next;
    } else if (char === '"') isQuoted = !isQuoted;
    else if ((char === '#' || char === ';') && !isQuoted) break;
    else value += char;
  }
  return value.trim();
}

/** The `path` of every `[submodule "…"]` section of a `.gitmodules` text (top-relative, `/`-separated, no trailing `/`). */
export function submodulePathsIn(text: string): string[] {
  const paths: string[] = [];
  let isSubmodule = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([^\]\s"]+)/.exec(line);
    if (header !== null) isSubmodule = (header[1] ?? '').toLowerCase() === 'submodule';
    else if (isSubmodule) {
      const setting = /^path\s*=(.*)$/i.exec(line);
      const value = setting === null ? '' : configValue(setting[1] ?? '').replace(/\/+$/, '');
      if (value !== '' && !value.startsWith('/') && !value.split('/').includes('..')) paths.push(value);
    }
  }
  return [...new Set(paths)];
}

/**
 * The submodules inside the directory at `prefix` (top-relative, '' or ending in `/`), relative to
 * it: the `.gitmodules` paths that the index lists (a gitlink entry), so a stale `.gitmodules` line
 * names nothing.
 */
export function submodulesBelow(gitmodules: string, indexPaths: readonly string[], prefix: string): string[] {
  const listed = submodulePathsIn(gitmodules).filter((item) => item.startsWith(prefix) && item !== prefix);
  if (listed.length === 0) return [];
  const wanted = new Set(listed);
  return indexPaths.filter((item) => wanted.has(item)).map((item) => item.slice(prefix.length));
}

/** What a submodule's rules come from (a `RepoRulesCache` of its folder). */
export interface RulesSource {
  current(): Promise<LoadedRules>;
}

/**
 * The submodules git tracks inside `dir` (relative to it): each a real folder there, not reached
 * through a symbolic link (the walk would not go in, and a link back up would never end).
 */
export async function submodulesOf(
  dir: string,
  gitmodules: string,
  indexPaths: readonly string[],
  prefix: string,
): Promise<string[]> {
  // git refuses a .gitmodules that is a symbolic link; Vigil reads it as git does.
  const bytes = await readGitFile(gitmodules, false).catch(() => undefined);
  if (!Buffer.isBuffer(bytes)) return [];
  const listed = submodulesBelow(bytes.toString('utf8'), indexPaths, prefix);
  if (listed.length === 0) return [];
  const top = await realpath(dir).catch(() => undefined);
  const real = await Promise.all(listed.map((at) => realpath(folderOf(dir, at)).catch(() => undefined)));
  return listed.filter((at, index) => top !== undefined && real[index] === folderOf(top, at));
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

  async around(own: LoadedRules, submodules: readonly string[]): Promise<LoadedRules> {
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
