import type { SkipReason } from '../checkpoint-types';
import { fileModes, type FileMode } from '../../git-store';
import type { DirNode, FileRecord } from './dir-state';
import type { StatCacheColumns } from './stat-cache-format';

/** The columns of a loaded stat cache that its folders' entries are read from. */
export interface SavedColumns extends Pick<
  StatCacheColumns,
  'shape' | 'names' | 'oids' | 'sizes' | 'times' | 'inodes'
> {
  /** What the mode and skip-reason codes of `shape` stand for. */
  readonly modes: readonly FileMode[];
  readonly reasons: readonly SkipReason[];
}

/** Where one folder's entries sit in the columns. */
export interface SavedSpan {
  /** Index of its first file name in `names`, then of its skipped names. */
  readonly nameStart: number;
  /** Index of its first file's mode code in `shape`, then of its skip reason codes. */
  readonly shapeStart: number;
  /** Index of its first file in the size, time and inode columns. */
  readonly fileStart: number;
  /** Byte offset of its first file's blob id in `oids`. */
  readonly oidStart: number;
  readonly fileCount: number;
  readonly skipCount: number;
}

/**
 * A folder as loaded from the stat cache: its files and skips are decoded on first use. A one-shot
 * checkpoint of a big tree touches only the few folders that changed (the workers compare the
 * rest), and the stat cache copies the others' entries back as they were (`isFilesSaved`,
 * `isSkipsSaved`), so most of a 50,000-file state is never turned into objects.
 */
export class SavedFolder implements DirNode {
  readonly dirs = new Set<string>();
  tree: string | undefined;
  #files: Map<string, FileRecord> | undefined;
  #skipped: Map<string, SkipReason> | undefined;

  constructor(
    readonly columns: SavedColumns,
    readonly span: SavedSpan,
  ) {}

  get files(): Map<string, FileRecord> {
    this.#files ??= this.#decodeFiles();
    return this.#files;
  }

  get skipped(): Map<string, SkipReason> {
    this.#skipped ??= new Map(this.skips());
    return this.#skipped;
  }

  /** Its files, decoded afresh and not kept while they are the saved ones: a read-only look leaves the folder compact. */
  peekFiles(): ReadonlyMap<string, FileRecord> {
    return this.#files ?? this.#decodeFiles();
  }

  /** Whether its files are still exactly the saved ones (never decoded, so never changed). */
  get isFilesSaved(): boolean {
    return this.#files === undefined;
  }

  /** Whether its skips are still exactly the saved ones. */
  get isSkipsSaved(): boolean {
    return this.#skipped === undefined;
  }

  /** How many files it holds, without decoding them. */
  get fileCount(): number {
    return this.#files?.size ?? this.span.fileCount;
  }

  /** Its file names, read from the columns while its files are not decoded. */
  fileNames(): string[] {
    if (this.#files !== undefined) return [...this.#files.keys()];
    const { nameStart, fileCount } = this.span;
    return this.columns.names.slice(nameStart, nameStart + fileCount);
  }

  /** Its skips, read from the columns while they are not decoded (reading them changes nothing). */
  skips(): Array<[string, SkipReason]> {
    if (this.#skipped !== undefined) return [...this.#skipped];
    const { names, shape, reasons } = this.columns;
    const { nameStart, shapeStart, fileCount, skipCount } = this.span;
    const list: Array<[string, SkipReason]> = [];
    for (let index = fileCount; index < fileCount + skipCount; index += 1)
      list.push([names[nameStart + index] ?? '', reasons[shape[shapeStart + index] ?? 0] ?? 'excluded']);
    return list;
  }

  #decodeFiles(): Map<string, FileRecord> {
    const { names, shape, oids, sizes, times, inodes, modes } = this.columns;
    const { nameStart, shapeStart, fileStart, oidStart, fileCount } = this.span;
    const hex = oids.toString('hex', oidStart, oidStart + fileCount * 20);
    const files = new Map<string, FileRecord>();
    for (let index = 0; index < fileCount; index += 1) {
      const at = fileStart + index;
      files.set(names[nameStart + index] ?? '', {
        mode: modes[shape[shapeStart + index] ?? 0] ?? fileModes.file,
        oid: hex.slice(index * 40, index * 40 + 40),
        size: sizes[at] ?? 0,
        mtimeNs: times[at * 2] ?? 0n,
        ctimeNs: times[at * 2 + 1] ?? 0n,
        ino: inodes[at] ?? 0n,
      });
    }
    return files;
  }
}

/** A folder's file count, without decoding a saved folder's files. */
export function fileCountOf(node: DirNode): number {
  return node instanceof SavedFolder ? node.fileCount : node.files.size;
}

/** A folder's files for reading only: a saved folder's are decoded without being kept (see `SavedFolder.peekFiles`). */
export function filesOf(node: DirNode): ReadonlyMap<string, FileRecord> {
  return node instanceof SavedFolder ? node.peekFiles() : node.files;
}

/** A folder's skips, without decoding a saved folder's skips. */
export function skipsOf(node: DirNode): Iterable<[string, SkipReason]> {
  return node instanceof SavedFolder ? node.skips() : node.skipped;
}

/** A folder's skip count, without decoding a saved folder's skips. */
export function skipCountOf(node: DirNode): number {
  return node instanceof SavedFolder && node.isSkipsSaved ? node.span.skipCount : node.skipped.size;
}
