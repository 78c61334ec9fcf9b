import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readGitFile } from './git-files';
import { readGitIndexPaths, type GitIndexPaths } from './git-index';
import { mergeSplitIndex } from './split-index';

/** A file's identity for the rules' change check ('-' when absent). */
export async function fileIdentity(file: string): Promise<string> {
  try {
    const info = await stat(file, { bigint: true });
    return `${info.mtimeNs}:${info.ctimeNs}:${info.size}:${info.ino}`;
  } catch {
    return '-';
  }
}

/** A split index's shared index file, and its identity taken before it was read. */
export interface SharedIndexFile {
  readonly file: string;
  readonly identity: string;
}

/** Why an index gives no paths: the problem (after the index's name in a warning) and how to fix it. */
export interface IndexProblem {
  readonly problem: string;
  readonly fix?: string;
}

/** What reading an index gave, and the shared index it names when it is a split index (its identity is part of the rules' key). */
export interface IndexFileRead {
  readonly read: GitIndexPaths | IndexProblem;
  readonly shared?: SharedIndexFile;
}

/** The bytes of one of git's index files, or why they cannot be had. */
async function bytesOf(file: string): Promise<Buffer | { readonly problem: string }> {
  let bytes: Awaited<ReturnType<typeof readGitFile>>;
  try {
    bytes = await readGitFile(file);
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return typeof bytes === 'string' ? { problem: 'cannot be read (it is not a regular file)' } : bytes;
}

/**
 * The paths of the git index `file` (of the git directory `gitdir`), read as git reads it: a split
 * index merged with the shared index `gitdir/sharedindex.<id>` it names (read with the same care,
 * and checked against that id). Nothing more is read for an index that is not split.
 */
export async function readIndexFile(gitdir: string, file: string): Promise<IndexFileRead> {
  const bytes = await bytesOf(file);
  if (!Buffer.isBuffer(bytes)) return { read: bytes };
  const read = readGitIndexPaths(bytes);
  if ('error' in read) return { read: { problem: `cannot be read: ${read.error.message}` } };
  if (!('split' in read)) return { read };
  const sharedFile = path.join(gitdir, `sharedindex.${read.split.sharedId}`);
  // Its identity before its read: a shared index replaced during the read makes the next call read again.
  const shared = { file: sharedFile, identity: await fileIdentity(sharedFile) };
  const fix = `if "git status" fails there too, "git read-tree HEAD" rebuilds the index from the last commit (changes staged since are lost)`;
  const sharedBytes = await bytesOf(sharedFile);
  if (!Buffer.isBuffer(sharedBytes))
    return {
      read: { problem: `is a split index whose shared index ${sharedFile} ${sharedBytes.problem}`, fix },
      shared,
    };
  const merged = mergeSplitIndex(read.split, sharedBytes);
  if ('error' in merged)
    return {
      read: { problem: `is a split index that cannot be merged with ${sharedFile}: ${merged.error}`, fix },
      shared,
    };
  return { read: merged, shared };
}
