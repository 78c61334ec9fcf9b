import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../files';
import { isObjectId } from '../git-store';

/** How deep `ref: ` indirections are followed (git's own limit is 5). */
const maxSymrefDepth = 5;

/** What a `packed-refs` file was parsed from, so an unchanged file is not parsed again. */
interface PackedRefs {
  readonly stamp: string;
  readonly refs: ReadonlyMap<string, string>;
}

/** Parses `packed-refs`: `<oid> <name>` lines; `#` headers and `^<oid>` peeled lines are skipped. */
function parsePackedRefs(text: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line.trimEnd());
    if (match?.[1] !== undefined && match[2] !== undefined) refs.set(match[2], match[1]);
  }
  return refs;
}

/**
 * Reads the refs of a git directory someone else owns, without ever writing to it: loose ref
 * files first, then `packed-refs` (which `git gc` and `git pack-refs` move refs into; git writes
 * the packed file before it deletes a loose one, so this order never misses a ref that exists),
 * following `ref: ` symrefs such as `HEAD`. The parse of `packed-refs` is kept while its size,
 * inode and modification time stay the same.
 */
export class GitRefReader {
  #packed: PackedRefs | undefined;

  constructor(readonly gitdir: string) {}

  /** The object a ref points at (`refs/hermes/<hash>`, `HEAD`), or undefined when it does not exist. */
  async resolve(name: string): Promise<string | undefined> {
    let current = name;
    for (let depth = 0; depth <= maxSymrefDepth; depth += 1) {
      const loose = await this.#readLoose(current);
      if (loose === undefined) return (await this.#packedRefs()).get(current);
      if (isObjectId(loose)) return loose;
      const target = /^ref: (refs\/\S+)$/.exec(loose)?.[1];
      if (target === undefined) return undefined;
      current = target;
    }
    return undefined;
  }

  /** Every ref under a prefix (`refs/hermes/`) with its object, loose refs winning over packed ones. */
  async list(prefix: string): Promise<Map<string, string>> {
    const refs = new Map<string, string>();
    for (const [name, oid] of await this.#packedRefs()) if (name.startsWith(prefix)) refs.set(name, oid);
    const folder = path.join(this.gitdir, ...prefix.split('/').filter((part) => part !== ''));
    const names = await readdir(folder).catch(() => [] as string[]);
    await Promise.all(
      names.map(async (leaf) => {
        const name = `${prefix.endsWith('/') ? prefix : `${prefix}/`}${leaf}`;
        const value = await this.#readLoose(name);
        if (value !== undefined && isObjectId(value)) refs.set(name, value);
      }),
    );
    return refs;
  }

  /** A loose ref file's content (trimmed), or undefined when there is none (a folder, a lock, a race). */
  async #readLoose(name: string): Promise<string | undefined> {
    if (name.split('/').some((part) => part === '..' || part === '') || name.endsWith('.lock')) return undefined;
    try {
      return (await readFile(path.join(this.gitdir, ...name.split('/')), 'utf8')).trim();
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
      throw error;
    }
  }

  async #packedRefs(): Promise<ReadonlyMap<string, string>> {
    const file = path.join(this.gitdir, 'packed-refs');
    const info = await stat(file, { bigint: true }).catch(() => undefined);
    if (info === undefined) {
      this.#packed = undefined;
      return new Map();
    }
    const stamp = `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    if (this.#packed?.stamp === stamp) return this.#packed.refs;
    const text = await readFile(file, 'utf8').catch(() => '');
    this.#packed = { stamp, refs: parsePackedRefs(text) };
    return this.#packed.refs;
  }
}
