import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { runGit } from './restore-fixtures';

/** One file as git would store it: `100644`, `100755` or `120000` (a symlink, whose blob is its target). */
export interface StoredVersion {
  readonly mode: string;
  readonly oid: string;
  /** Bytes, for a file on disk. */
  readonly size?: number;
}

/** What a folder holds, read independently of Vigil: its files (by path) and its folders. */
export interface DiskState {
  readonly files: ReadonlyMap<string, StoredVersion>;
  readonly folders: ReadonlySet<string>;
}

/** The blob id git gives `bytes`. */
function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Every file, symlink and folder under `dir` (relative, `/`-separated), every `.git` left out, with git's mode and blob id. */
export function readDisk(dir: string): DiskState {
  const files = new Map<string, StoredVersion>();
  const folders = new Set<string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel === '' ? name : `${rel}/${name}`;
      // Every repository's own folder, the top's and a clone's inside (no restore touches them).
      if (name === '.git') continue;
      const absolute = path.join(dir, child);
      const info = lstatSync(absolute);
      if (info.isDirectory()) {
        folders.add(child);
        walk(child);
      } else if (info.isSymbolicLink())
        files.set(child, { mode: '120000', oid: blobId(readlinkSync(absolute, 'buffer')) });
      else {
        const mode = (info.mode & 0o100) === 0 ? '100644' : '100755';
        files.set(child, { mode, oid: blobId(readFileSync(absolute)), size: info.size });
      }
    }
  };
  walk('');
  return { files, folders };
}

/** What a commit of the store holds, read with git's own CLI (`ls-tree -r -z`): path → mode and blob id. */
export function storedTree(store: string, commit: string): Map<string, StoredVersion> {
  const tree = new Map<string, StoredVersion>();
  for (const line of runGit(['--git-dir', store, 'ls-tree', '-r', '-z', commit]).split('\0')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const [mode = '', , oid = ''] = line.slice(0, tab).split(' ');
    tree.set(line.slice(tab + 1), { mode, oid });
  }
  return tree;
}

/** Whether two versions (either possibly absent) are the same. */
export function isSame(a: StoredVersion | undefined, b: StoredVersion | undefined): boolean {
  return a?.mode === b?.mode && a?.oid === b?.oid;
}

/** A version for a message: `100644 abc1234` or `absent`. */
export function describe(version: StoredVersion | undefined): string {
  return version === undefined ? 'absent' : `${version.mode} ${version.oid.slice(0, 7)}`;
}
