import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/** A deterministic pseudo-random source (mulberry32): the same seed gives the same operations. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Folders and files now under `root` (relative, `/`-separated; the root is ''). */
function listTree(root: string): { folders: string[]; files: string[] } {
  const folders = [''];
  const files: string[] = [];
  for (let index = 0; index < folders.length; index += 1) {
    const rel = folders[index] ?? '';
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) folders.push(child);
      else files.push(child);
    }
  }
  return { folders, files };
}

const folderNames = ['gen', 'src', 'e', 'out2', 'lib'];
const fileNames = ['a', 'b', 'c.txt', 'main.ts', 'f1'];

/**
 * Random file operations on a small tree, of the kinds that once fooled a watcher: writes and
 * same-size overwrites, deletes, `rm -rf` and re-create, `mkdir e && rmdir e && mkdir e`, folders
 * moved into re-created folders, files moved, chmod, nested creates, symlinks. Each call does one
 * and returns a line describing it (the op log that reproduces a divergence).
 */
export class RandomFileOps {
  constructor(
    private readonly root: string,
    private readonly random: () => number,
  ) {}

  #pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  }

  #abs(rel: string): string {
    return path.join(this.root, rel);
  }

  #join(parent: string, name: string): string {
    return parent === '' ? name : `${parent}/${name}`;
  }

  #depth(rel: string): number {
    return rel === '' ? 0 : rel.split('/').length;
  }

  #content(): string {
    return `${Math.floor(this.random() * 1e9).toString(36)}\n`.repeat(1 + Math.floor(this.random() * 3));
  }

  /** Writes a file into any folder (new, or over an existing file; a folder in the way is replaced). */
  #write(folders: readonly string[]): string {
    const rel = this.#join(this.#pick(folders.filter((folder) => this.#depth(folder) < 4)), this.#pick(fileNames));
    rmSync(this.#abs(rel), { recursive: true, force: true });
    writeFileSync(this.#abs(rel), this.#content());
    return `write ${rel}`;
  }

  /** Does one random operation and says what it did. */
  step(): string {
    const { folders, files } = listTree(this.root);
    const subfolders = folders.filter((folder) => folder !== '');
    const roll = this.random();
    if (roll < 0.2 || files.length === 0) return this.#write(folders);
    if (roll < 0.3) {
      const rel = this.#pick(files);
      // Same size, other content, within the timestamp granularity: git's racy case.
      const info = lstatSync(this.#abs(rel));
      if (!info.isFile()) return this.#write(folders);
      writeFileSync(this.#abs(rel), 'x'.repeat(info.size).replace(/^x/, String(Math.floor(this.random() * 10))));
      return `overwrite same size ${rel}`;
    }
    if (roll < 0.38) {
      const rel = this.#pick(files);
      rmSync(this.#abs(rel));
      return `rm ${rel}`;
    }
    if (roll < 0.5 && subfolders.length > 0) {
      const rel = this.#pick(subfolders);
      rmSync(this.#abs(rel), { recursive: true });
      mkdirSync(this.#abs(rel));
      const withFile = this.random() < 0.5;
      if (withFile) writeFileSync(this.#abs(`${rel}/${this.#pick(fileNames)}`), this.#content());
      return `rm -rf ${rel} && mkdir ${rel}${withFile ? ' (+ a file)' : ''}`;
    }
    if (roll < 0.6) {
      const parent = this.#pick(folders.filter((folder) => this.#depth(folder) < 3));
      const rel = this.#join(parent, this.#pick(folderNames));
      rmSync(this.#abs(rel), { recursive: true, force: true });
      mkdirSync(this.#abs(rel));
      rmdirSync(this.#abs(rel));
      mkdirSync(this.#abs(rel));
      if (this.random() < 0.5) writeFileSync(this.#abs(`${rel}/${this.#pick(fileNames)}`), this.#content());
      return `mkdir ${rel} && rmdir ${rel} && mkdir ${rel}`;
    }
    if (roll < 0.7) {
      const parent = this.#pick(folders.filter((folder) => this.#depth(folder) < 2));
      const rel = this.#join(this.#join(parent, this.#pick(folderNames)), this.#pick(folderNames));
      rmSync(this.#abs(rel), { recursive: true, force: true });
      mkdirSync(this.#abs(rel), { recursive: true });
      writeFileSync(this.#abs(`${rel}/${this.#pick(fileNames)}`), this.#content());
      return `mkdir -p ${rel} + a file`;
    }
    if (roll < 0.82 && subfolders.length > 0) return this.#moveFolder(folders, subfolders);
    if (roll < 0.9) {
      const from = this.#pick(files);
      const to = this.#join(this.#pick(folders.filter((folder) => this.#depth(folder) < 4)), this.#pick(fileNames));
      if (to === from || lstatSync(this.#abs(to), { throwIfNoEntry: false })?.isDirectory() === true)
        return this.#write(folders);
      renameSync(this.#abs(from), this.#abs(to));
      return `mv ${from} ${to}`;
    }
    if (roll < 0.97) {
      const rel = this.#pick(files);
      if (!lstatSync(this.#abs(rel)).isFile()) return this.#write(folders);
      const mode = this.random() < 0.5 ? 0o755 : 0o644;
      chmodSync(this.#abs(rel), mode);
      return `chmod ${mode.toString(8)} ${rel}`;
    }
    const link = this.#join(
      this.#pick(folders.filter((folder) => this.#depth(folder) < 4)),
      `link-${this.#pick(fileNames)}`,
    );
    rmSync(this.#abs(link), { recursive: true, force: true });
    const target = this.#pick(fileNames);
    symlinkSync(target, this.#abs(link));
    return `ln -s ${target} ${link}`;
  }

  /** Moves a folder into another (often one just re-created), never into itself. */
  #moveFolder(folders: readonly string[], subfolders: readonly string[]): string {
    const from = this.#pick(subfolders);
    const targets = folders.filter(
      (folder) => folder !== from && !folder.startsWith(`${from}/`) && this.#depth(folder) < 3,
    );
    const into = this.#pick(targets);
    const recreate = into !== '' && this.random() < 0.5;
    if (recreate && !from.startsWith(`${into}/`)) {
      rmSync(this.#abs(into), { recursive: true });
      mkdirSync(this.#abs(into));
    }
    const to = this.#join(into, this.#pick(folderNames));
    const isNested = to === from || to.startsWith(`${from}/`) || from.startsWith(`${to}/`);
    if (isNested || !lstatSync(this.#abs(from), { throwIfNoEntry: false })) return this.#write(folders);
    rmSync(this.#abs(to), { recursive: true, force: true });
    mkdirSync(path.dirname(this.#abs(to)), { recursive: true });
    renameSync(this.#abs(from), this.#abs(to));
    return `${recreate ? `rm -rf ${into} && mkdir ${into} && ` : ''}mv ${from} ${to}`;
  }
}
