import type { SkipReason } from '../checkpoint-types';
import type { FileMode } from '../store/git-objects';
import { isRacy, type FolderListing } from './folder-listing';
import { statCacheCodes, statCacheColumns, type StatCacheColumns } from './stat-cache';

/** Where one folder's entries sit in the stat cache's columns. */
interface FolderSpan {
  /** Index of the folder's first file name in `names`, then of its skipped names. */
  readonly nameStart: number;
  /** Index of its first file's mode in `shape`, then of its skip reasons. */
  readonly shapeStart: number;
  /** Index of its first file in the size, time and inode columns. */
  readonly fileStart: number;
  readonly fileCount: number;
  readonly skipCount: number;
  childFolders: number;
}

/** One folder of the baseline, its names looked up on first use. */
interface BaselineFolder {
  readonly files: ReadonlyMap<string, number>;
  readonly skipped: ReadonlyMap<string, SkipReason>;
  readonly childFolders: number;
}

/**
 * The stat cache as a walking worker sees it: each folder's files with their saved stat, its skips
 * and how many folders it holds. The walk hands over only the folders whose listing differs from
 * it, since applying an identical listing to the state loaded from that cache changes nothing.
 */
export class StatBaseline {
  readonly #spans = new Map<string, FolderSpan>();

  private constructor(
    private readonly columns: StatCacheColumns,
    private readonly maxFileBytes: number,
  ) {
    const { shape, names } = columns;
    let [at, name, fileIndex] = [0, 0, 0];
    for (let folder = 0; folder < columns.folders; folder += 1) {
      const rel = names[name] ?? '';
      const fileCount = shape[at + 1] ?? 0;
      const skipCount = shape[at + 2] ?? 0;
      this.#spans.set(rel, {
        nameStart: name + 1,
        shapeStart: at + 3,
        fileStart: fileIndex,
        fileCount,
        skipCount,
        childFolders: 0,
      });
      if (rel !== '') {
        const slash = rel.lastIndexOf('/');
        const parent = this.#spans.get(slash < 0 ? '' : rel.slice(0, slash));
        if (parent !== undefined) parent.childFolders += 1;
      }
      name += 1 + fileCount + skipCount;
      at += 3 + fileCount + skipCount;
      fileIndex += fileCount;
    }
  }

  /** The baseline of a stat cache's content (checked already by whoever loaded it), or undefined if it cannot be read. */
  static of(content: Uint8Array, maxFileBytes: number): StatBaseline | undefined {
    const columns = statCacheColumns(Buffer.from(content.buffer, content.byteOffset, content.byteLength), undefined);
    return columns === undefined ? undefined : new StatBaseline(columns, maxFileBytes);
  }

  /** One folder of the baseline, built when its listing is compared (once per walk) and not kept: nothing of it outlives the comparison. */
  #folder(span: FolderSpan | undefined): BaselineFolder | undefined {
    let folder: BaselineFolder | undefined;
    if (span !== undefined) {
      const { names } = this.columns;
      const files = new Map<string, number>();
      const skipped = new Map<string, SkipReason>();
      for (let index = 0; index < span.fileCount; index += 1)
        files.set(names[span.nameStart + index] ?? '', span.fileStart + index);
      for (let index = 0; index < span.skipCount; index += 1) {
        const reason = statCacheCodes.reasons[this.columns.shape[span.shapeStart + span.fileCount + index] ?? -1];
        if (reason !== undefined) skipped.set(names[span.nameStart + span.fileCount + index] ?? '', reason);
      }
      folder = { files, skipped, childFolders: span.childFolders };
    }
    return folder;
  }

  /** The saved mode of file number `index` of the columns, which lies in `span`. */
  #mode(span: FolderSpan, index: number): FileMode | undefined {
    return statCacheCodes.modes[this.columns.shape[span.shapeStart + index - span.fileStart] ?? -1];
  }

  /**
   * Whether applying this listing to the state loaded from the cache would change nothing: the
   * same names, every file's stat equal to its record and not racy, the same skips.
   */
  isUnchanged(listing: FolderListing): boolean {
    if (listing.outcome !== 'listed') return false;
    const span = this.#spans.get(listing.rel);
    const folder = this.#folder(span);
    if (folder === undefined || span === undefined) return false;
    if (listing.entries.length !== folder.files.size + folder.skipped.size + folder.childFolders) return false;
    const prefix = listing.rel === '' ? '' : `${listing.rel}/`;
    const { sizes, times, inodes, stampNs } = this.columns;
    for (const entry of listing.entries) {
      if (entry.kind === 'skip') {
        if (folder.skipped.get(entry.isFolder ? `${entry.name}/` : entry.name) !== entry.reason) return false;
      } else if (entry.kind === 'folder') {
        if (!this.#spans.has(prefix + entry.name)) return false;
      } else {
        const index = folder.files.get(entry.name);
        if (index === undefined || entry.outcome.kind !== 'stat') return false;
        const { stat } = entry.outcome;
        if (stat.isFolder || (!stat.isFile && !stat.isSymlink) || (stat.isFile && stat.size > this.maxFileBytes))
          return false;
        const mtimeNs = times[index * 2];
        if (
          mtimeNs === undefined ||
          stat.mode !== this.#mode(span, index) ||
          stat.size !== sizes[index] ||
          stat.mtimeNs !== mtimeNs ||
          stat.ctimeNs !== times[index * 2 + 1] ||
          stat.ino !== inodes[index] ||
          isRacy(mtimeNs, stampNs)
        )
          return false;
      }
    }
    return true;
  }
}
