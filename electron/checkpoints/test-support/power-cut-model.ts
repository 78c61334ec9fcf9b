import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TracedCall } from './power-cut-trace';

/** A file-system object of the model: files keep their bytes; hard links share one inode. */
type Inode =
  | { readonly kind: 'file'; data: Buffer }
  | { readonly kind: 'dir' }
  | { readonly kind: 'symlink'; readonly target: string };

/** A file system in memory, limited to one folder (the scope); calls outside it are ignored. */
export class ModelFs {
  readonly scope: string;
  readonly #paths = new Map<string, number>();
  readonly #inodes = new Map<number, Inode>();
  #next = 1;

  constructor(scope: string) {
    this.scope = scope;
  }

  /** The scope as it is on disk now. */
  static read(scope: string): ModelFs {
    const model = new ModelFs(scope);
    model.#add(scope, { kind: 'dir' });
    for (const entry of readdirSync(scope, { recursive: true, withFileTypes: true })) {
      const absolute = path.join(entry.parentPath, entry.name);
      if (entry.isDirectory()) model.#add(absolute, { kind: 'dir' });
      else if (entry.isSymbolicLink()) model.#add(absolute, { kind: 'symlink', target: readlinkSync(absolute) });
      else if (entry.isFile()) model.#add(absolute, { kind: 'file', data: readFileSync(absolute) });
    }
    return model;
  }

  /** A copy whose files can change without changing this one. */
  clone(): ModelFs {
    const copy = new ModelFs(this.scope);
    copy.#next = this.#next;
    for (const [name, id] of this.#paths) copy.#paths.set(name, id);
    for (const [id, inode] of this.#inodes)
      copy.#inodes.set(id, inode.kind === 'file' ? { kind: 'file', data: Buffer.from(inode.data) } : inode);
    return copy;
  }

  #add(name: string, inode: Inode): number {
    const id = this.#next++;
    this.#inodes.set(id, inode);
    this.#paths.set(name, id);
    return id;
  }

  #isInScope(name: string): boolean {
    return name === this.scope || name.startsWith(`${this.scope}/`);
  }

  /** The inode at a path (undefined: nothing, or outside the scope). */
  inodeAt(name: string): number | undefined {
    return this.#paths.get(name);
  }

  /** The size of the file at a path (0 when there is none). */
  sizeOf(name: string): number {
    const inode = this.#inodes.get(this.#paths.get(name) ?? 0);
    return inode?.kind === 'file' ? inode.data.length : 0;
  }

  #canCreate(name: string): boolean {
    return this.#isInScope(name) && this.#inodes.get(this.#paths.get(path.dirname(name)) ?? 0)?.kind === 'dir';
  }

  /** Applies one call (with the offset it wrote at); a call on something missing does nothing, as if it never reached the disk. */
  apply(call: TracedCall, offset: number): void {
    switch (call.kind) {
      case 'create':
      case 'open': {
        const existing = this.#inodes.get(this.#paths.get(call.path) ?? 0);
        if (existing === undefined && call.kind === 'create' && this.#canCreate(call.path))
          this.#add(call.path, { kind: 'file', data: Buffer.alloc(0) });
        else if (existing?.kind === 'file' && call.truncate) existing.data = Buffer.alloc(0);
        return;
      }
      case 'write':
        this.#write(call.path, offset, call.data);
        return;
      case 'truncate': {
        const inode = this.#inodes.get(this.#paths.get(call.path) ?? 0);
        if (inode?.kind !== 'file') return;
        const data = Buffer.alloc(call.size);
        inode.data.copy(data, 0, 0, Math.min(call.size, inode.data.length));
        inode.data = data;
        return;
      }
      case 'mkdir':
        if (!this.#paths.has(call.path) && this.#canCreate(call.path)) this.#add(call.path, { kind: 'dir' });
        return;
      case 'symlink':
        if (!this.#paths.has(call.path) && this.#canCreate(call.path))
          this.#add(call.path, { kind: 'symlink', target: call.target });
        return;
      case 'unlink':
      case 'rmdir':
        this.#remove(call.path);
        return;
      case 'link': {
        const id = this.#paths.get(call.from);
        if (id !== undefined && !this.#paths.has(call.path) && this.#canCreate(call.path))
          this.#paths.set(call.path, id);
        return;
      }
      case 'rename':
        this.#rename(call.from, call.path);
        return;
      default:
        return;
    }
  }

  #write(name: string, offset: number, data: Buffer): void {
    const inode = this.#inodes.get(this.#paths.get(name) ?? 0);
    if (inode?.kind !== 'file') return;
    const end = offset + data.length;
    if (end > inode.data.length) {
      const grown = Buffer.alloc(end);
      inode.data.copy(grown);
      inode.data = grown;
    }
    data.copy(inode.data, offset);
  }

  #remove(name: string): void {
    for (const key of [...this.#paths.keys()]) if (key === name || key.startsWith(`${name}/`)) this.#paths.delete(key);
  }

  #rename(from: string, to: string): void {
    if (!this.#paths.has(from) || !this.#canCreate(to)) return;
    this.#remove(to);
    for (const [key, id] of [...this.#paths]) {
      if (key !== from && !key.startsWith(`${from}/`)) continue;
      this.#paths.delete(key);
      this.#paths.set(`${to}${key.slice(from.length)}`, id);
    }
  }

  /** A digest of the whole state, to check each distinct crash state once. */
  fingerprint(): string {
    const parts = [...this.#paths].sort(([a], [b]) => (a < b ? -1 : 1));
    return parts
      .map(([name, id]) => {
        const inode = this.#inodes.get(id);
        if (inode?.kind === 'file') return `${name}:f:${inode.data.toString('base64')}`;
        return `${name}:${inode?.kind ?? '?'}:${inode?.kind === 'symlink' ? inode.target : ''}`;
      })
      .join('\n');
  }

  /** Lays the state down on disk at the scope (whatever was there is removed). */
  materialise(): void {
    rmSync(this.scope, { recursive: true, force: true });
    const names = [...this.#paths.keys()].sort((a, b) => a.length - b.length);
    for (const name of names) {
      const inode = this.#inodes.get(this.#paths.get(name) ?? 0);
      if (inode?.kind === 'dir') mkdirSync(name, { recursive: true });
    }
    for (const name of names) {
      const inode = this.#inodes.get(this.#paths.get(name) ?? 0);
      if (inode?.kind === 'file') writeFileSync(name, inode.data);
      if (inode?.kind === 'symlink') symlinkSync(inode.target, name);
    }
  }
}
