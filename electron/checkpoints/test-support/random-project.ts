import { chmodSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readDisk } from './round-trip-truth';

/**
 * Random project content and random damage to it, for the restore round trip: names with spaces,
 * unicode, leading dashes, very long names, deep paths, empty files, executable bits, symlinks of
 * every kind (to a file, to a folder, dangling, absolute, pointing outside), files at and over the
 * size cap, excluded names (`node_modules/`, `.env`), empty folders. Every step returns the line
 * that describes it, so a failing round prints what it did.
 */

const fileNames = ['a.txt', 'with space.md', 'ünï-cödé.txt', '-dash', 'run.sh', 'b', `long-${'n'.repeat(200)}.txt`];
const folderNames = ['src', 'dir with space', 'ünï', '-flag', 'deep/a/b/c/d/e/f', 'lib'];
const excludedNames = ['.env', 'node_modules/pkg/index.js', 'node_modules/.bin/tool'];

/** Content of one of the interesting sizes around `cap` (bytes): empty, small, at the cap, over it. */
function content(random: () => number, cap: number): string {
  const roll = random();
  if (roll < 0.12) return '';
  const seed = Math.floor(random() * 1e9).toString(36);
  if (roll < 0.2) return seed.repeat(cap).slice(0, cap);
  if (roll < 0.28) return seed.repeat(cap + 1).slice(0, cap + 1);
  return `${seed}\n`.repeat(1 + Math.floor(random() * 4));
}

/** A random project under `dir`, damaged at random afterwards. */
export class RandomProject {
  constructor(
    private readonly dir: string,
    private readonly random: () => number,
    /** The size cap (bytes) the engine runs with. */
    private readonly cap: number,
  ) {}

  #pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  }

  #abs(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }

  /** Files, symlinks and folders now under the project (relative; `.git` left out; the root is not listed). */
  list(): { readonly files: string[]; readonly folders: string[] } {
    const { files, folders } = readDisk(this.dir);
    return { files: [...files.keys()], folders: [...folders] };
  }

  /** A path for a new file: a random name in the root, a known folder or a folder that exists. */
  #newPath(): string {
    const { folders } = this.list();
    const parent = this.#pick(['', '', ...folderNames, ...folders.filter((folder) => !folder.startsWith('.git'))]);
    const name = this.random() < 0.1 ? this.#pick(excludedNames) : this.#pick(fileNames);
    return parent === '' ? name : `${parent}/${name}`;
  }

  /** Writes a file at `rel`, replacing whatever is there and making its folders (a file in the way is removed). */
  #writeAt(rel: string, text: string, mode = 0o644): void {
    const parts = rel.split('/');
    for (let index = 1; index < parts.length; index += 1) {
      const folder = parts.slice(0, index).join('/');
      const info = lstatSync(this.#abs(folder), { throwIfNoEntry: false });
      if (info !== undefined && !info.isDirectory()) rmSync(this.#abs(folder));
    }
    mkdirSync(path.dirname(this.#abs(rel)), { recursive: true });
    rmSync(this.#abs(rel), { recursive: true, force: true });
    writeFileSync(this.#abs(rel), text);
    chmodSync(this.#abs(rel), mode);
  }

  /** A symlink of a random kind at `rel`; returns its target. */
  #linkAt(rel: string): string {
    const target = this.#pick([
      'a.txt',
      'src',
      'missing-target',
      this.#abs('a.txt'),
      '../outside.txt',
      '/etc/hostname',
      'dir with space/ünï-cödé.txt',
    ]);
    this.#writeAt(rel, '');
    rmSync(this.#abs(rel));
    symlinkSync(target, this.#abs(rel));
    return target;
  }

  /** Lays down the first version of the project; returns what it made. */
  seed(): string[] {
    const log: string[] = [];
    const count = 12 + Math.floor(this.random() * 14);
    for (let index = 0; index < count; index += 1) {
      const rel = this.#newPath();
      if (this.random() < 0.15) log.push(`ln -s ${this.#linkAt(rel)} ${rel}`);
      else {
        const mode = this.random() < 0.25 ? 0o755 : 0o644;
        const text = content(this.random, this.cap);
        this.#writeAt(rel, text, mode);
        log.push(`write ${rel} (${text.length} bytes, ${mode.toString(8)})`);
      }
    }
    mkdirSync(this.#abs('empty/inner'), { recursive: true });
    log.push('mkdir -p empty/inner');
    return log;
  }

  /** Does one random piece of damage and says what it did. */
  damage(): string {
    const { files, folders } = this.list();
    const roll = this.random();
    if (roll < 0.15 || files.length === 0) {
      const rel = this.#pick([...files, this.#newPath()]);
      const text = content(this.random, this.cap);
      this.#writeAt(rel, text);
      return `write ${rel} (${text.length} bytes)`;
    }
    const file = this.#pick(files);
    if (roll < 0.27) {
      rmSync(this.#abs(file));
      return `rm ${file}`;
    }
    if (roll < 0.35) {
      const mode = (lstatSync(this.#abs(file)).mode & 0o100) === 0 ? 0o755 : 0o644;
      if (lstatSync(this.#abs(file)).isSymbolicLink()) return `(chmod skipped: ${file} is a symlink)`;
      chmodSync(this.#abs(file), mode);
      return `chmod ${mode.toString(8)} ${file}`;
    }
    if (roll < 0.45) {
      rmSync(this.#abs(file));
      this.#writeAt(`${file}/inside.txt`, 'now a folder\n');
      return `rm ${file} && mkdir ${file} && write ${file}/inside.txt`;
    }
    if (roll < 0.55 && folders.length > 0) {
      const folder = this.#pick(folders);
      rmSync(this.#abs(folder), { recursive: true });
      writeFileSync(this.#abs(folder), 'now a file\n');
      return `rm -rf ${folder} && write ${folder}`;
    }
    if (roll < 0.67) {
      if (lstatSync(this.#abs(file)).isSymbolicLink()) {
        this.#writeAt(file, 'was a symlink\n');
        return `rm ${file} (a symlink) && write ${file}`;
      }
      return `ln -sf ${this.#linkAt(file)} ${file} (was a file)`;
    }
    if (roll < 0.77 && folders.length > 0) {
      const from = this.#pick(folders);
      const to = `${from}-renamed`;
      rmSync(this.#abs(to), { recursive: true, force: true });
      renameSync(this.#abs(from), this.#abs(to));
      return `mv ${from} ${to}`;
    }
    if (roll < 0.85 && folders.length > 0) {
      const folder = this.#pick(folders);
      for (const name of readdirSync(this.#abs(folder))) rmSync(this.#abs(`${folder}/${name}`), { recursive: true });
      return `empty ${folder}`;
    }
    if (roll < 0.87 && folders.length > 0) {
      const folder = this.#pick(folders);
      const target = this.#pick(['../outside-dir', path.join(path.dirname(this.dir), 'outside-dir'), 'src', 'gone']);
      rmSync(this.#abs(folder), { recursive: true });
      symlinkSync(target, this.#abs(folder));
      return `rm -rf ${folder} && ln -s ${target} ${folder}`;
    }
    if (roll < 0.9) {
      const folder = `${this.#pick(['', ...folders])}/new-empty`.replace(/^\//, '');
      rmSync(this.#abs(folder), { recursive: true, force: true });
      mkdirSync(this.#abs(folder), { recursive: true });
      return `mkdir ${folder}`;
    }
    const rel = this.#newPath();
    const text = content(this.random, this.cap);
    this.#writeAt(rel, text, this.random() < 0.3 ? 0o755 : 0o644);
    return `create ${rel} (${text.length} bytes)`;
  }
}
