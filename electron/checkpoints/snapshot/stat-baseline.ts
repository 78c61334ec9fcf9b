import { constants, type BigIntStats } from 'node:fs';
import type { SkipReason } from '../checkpoint-types';
import { gitModeOf, isRacy, maxRacyWindowNs } from './folder-listing';
import { statCacheCodes, statCacheSeparator, statCacheText, type StatCacheText } from './stat-cache-format';

const { S_IFMT, S_IFREG, S_IFLNK } = constants;

/** Where one folder's entries sit in the stat cache's columns and in its names text. */
interface FolderSpan {
  /** Index of its first file's mode in `shape`, then of its skip reasons. */
  readonly shapeStart: number;
  /** Index of its first file in the size, time and inode columns. */
  readonly fileStart: number;
  readonly fileCount: number;
  readonly skipCount: number;
  /** Where its file names begin in the names text, then its skipped names, and where they end. */
  readonly filesAt: number;
  readonly skipsAt: number;
  readonly endAt: number;
  childFolders: number;
}

/**
 * One folder's comparison with the baseline, entry by entry as the walk meets them: no listing is
 * built for a folder that turns out unchanged (most of them), and a file's record is found by its
 * place (the walk lists a folder in the order its files were saved in, unless it changed), its
 * name compared in the names text, before any name is split out or any lookup table made.
 */
export interface FolderCheck {
  readonly span: FolderSpan;
  /** How many of the folder's files, skips and folders matched so far. */
  files: number;
  skips: number;
  folders: number;
  /** Where the next file's name is in the names text while the files come in their saved order, else -1. */
  nextAt: number;
  /** The folder's file names to their place in the span, made only when a name is not where expected. */
  byName: Map<string, number> | undefined;
  /** Its skipped names, split out when the first skip is compared. */
  skipNames: readonly string[] | undefined;
}

/**
 * The stat cache as a walking worker sees it: each folder's files with their saved stat, its skips
 * and how many folders it holds. The walk hands over only the folders whose listing differs from
 * it, since applying an identical listing to the state loaded from that cache changes nothing. Its
 * names stay one text (split, 50,000 names cost a cold worker ~5 ms and its young generation ~2 MB
 * that lives as long as the walk): a folder's are found by their NUL separators.
 */
export class StatBaseline {
  readonly #spans = new Map<string, FolderSpan>();
  /** An mtime before this is not racy under any window (the widest is 2 s): no BigInt arithmetic for most files. */
  readonly #surelyOldBeforeNs: bigint;

  private constructor(
    private readonly columns: StatCacheText,
    private readonly maxFileBytes: number,
  ) {
    this.#surelyOldBeforeNs = columns.stampNs - maxRacyWindowNs;
    const { shape, namesText } = columns;
    /** Where the name after the one starting at `from` starts (past the text's end after the last). */
    const after = (from: number): number => {
      const end = namesText.indexOf(statCacheSeparator, from);
      return end < 0 ? namesText.length + 1 : end + 1;
    };
    let [at, fileIndex, textAt] = [0, 0, 0];
    for (let folder = 0; folder < columns.folders; folder += 1) {
      const filesAt = after(textAt);
      const rel = namesText.slice(textAt, filesAt - 1);
      const fileCount = shape[at + 1] ?? 0;
      const skipCount = shape[at + 2] ?? 0;
      let skipsAt = filesAt;
      for (let index = 0; index < fileCount; index += 1) skipsAt = after(skipsAt);
      let endAt = skipsAt;
      for (let index = 0; index < skipCount; index += 1) endAt = after(endAt);
      this.#spans.set(rel, {
        shapeStart: at + 3,
        fileStart: fileIndex,
        fileCount,
        skipCount,
        filesAt,
        skipsAt,
        endAt,
        childFolders: 0,
      });
      if (rel !== '') {
        const slash = rel.lastIndexOf('/');
        const parent = this.#spans.get(slash < 0 ? '' : rel.slice(0, slash));
        if (parent !== undefined) parent.childFolders += 1;
      }
      at += 3 + fileCount + skipCount;
      fileIndex += fileCount;
      textAt = endAt;
    }
  }

  /** The baseline of a stat cache's content (checked already by whoever loaded it), or undefined if it cannot be read. */
  static of(content: Uint8Array, maxFileBytes: number): StatBaseline | undefined {
    const columns = statCacheText(Buffer.from(content.buffer, content.byteOffset, content.byteLength), undefined);
    return columns === undefined ? undefined : new StatBaseline(columns, maxFileBytes);
  }

  /** Starts comparing the folder `rel` with the baseline; undefined when the baseline has no such folder. */
  folder(rel: string): FolderCheck | undefined {
    const span = this.#spans.get(rel);
    return span === undefined
      ? undefined
      : { span, files: 0, skips: 0, folders: 0, nextAt: span.filesAt, byName: undefined, skipNames: undefined };
  }

  /** The names from `from` to `to` (each followed by a NUL, the last one too unless the text ends). */
  #namesBetween(from: number, to: number): string[] {
    return from >= to ? [] : this.columns.namesText.slice(from, to - 1).split(statCacheSeparator);
  }

  /** The place in the span of the file `name`, or undefined when the baseline has no such file. */
  #fileOffset(check: FolderCheck, name: string): number | undefined {
    const { span } = check;
    const { namesText } = this.columns;
    const at = check.nextAt;
    if (at >= 0 && check.files < span.fileCount && namesText.startsWith(name, at)) {
      const end = at + name.length;
      // The whole name: a NUL follows (or the text ends), and names hold no NUL.
      if (end === namesText.length || namesText.charCodeAt(end) === 0) {
        check.nextAt = end + 1;
        return check.files;
      }
    }
    check.nextAt = -1;
    if (check.byName === undefined) {
      check.byName = new Map();
      const names = this.#namesBetween(span.filesAt, span.skipsAt);
      for (let offset = 0; offset < span.fileCount; offset += 1) check.byName.set(names[offset] ?? '', offset);
    }
    return check.byName.get(name);
  }

  /**
   * Whether the file `name`, whose lstat this is, is as its record says (the same type, mode, size,
   * times and inode, within the size cap, and not racy): what applying its listing would find.
   */
  isSameFile(check: FolderCheck, name: string, stats: BigIntStats): boolean {
    const offset = this.#fileOffset(check, name);
    if (offset === undefined) return false;
    const mode = Number(stats.mode);
    const type = mode & S_IFMT;
    const size = Number(stats.size);
    if ((type !== S_IFREG && type !== S_IFLNK) || (type === S_IFREG && size > this.maxFileBytes)) return false;
    const { span } = check;
    const index = span.fileStart + offset;
    const { sizes, times, inodes, stampNs } = this.columns;
    const mtimeNs = times[index * 2];
    if (
      mtimeNs === undefined ||
      gitModeOf(mode) !== statCacheCodes.modes[this.columns.shape[span.shapeStart + offset] ?? -1] ||
      size !== sizes[index] ||
      stats.mtimeNs !== mtimeNs ||
      stats.ctimeNs !== times[index * 2 + 1] ||
      stats.ino !== inodes[index] ||
      (mtimeNs >= this.#surelyOldBeforeNs && isRacy(mtimeNs, stampNs))
    )
      return false;
    check.files += 1;
    return true;
  }

  /** Whether the baseline records this skip (a folder's name with a slash, as the state keeps it). */
  isSameSkip(check: FolderCheck, name: string, reason: SkipReason, isFolder: boolean): boolean {
    const { span } = check;
    check.skipNames ??= this.#namesBetween(span.skipsAt, span.endAt);
    const offset = check.skipNames.indexOf(isFolder ? `${name}/` : name);
    if (offset < 0 || offset >= span.skipCount) return false;
    const saved = statCacheCodes.reasons[this.columns.shape[span.shapeStart + span.fileCount + offset] ?? -1];
    if (saved !== reason) return false;
    check.skips += 1;
    return true;
  }

  /** Whether the baseline has the sub-folder `name` of the folder being compared (`rel` is that folder's). */
  isSameFolder(check: FolderCheck, rel: string, name: string): boolean {
    if (!this.#spans.has(rel === '' ? name : `${rel}/${name}`)) return false;
    check.folders += 1;
    return true;
  }

  /** Whether every entry the baseline has for the folder was met, and nothing else (call once its entries are compared). */
  isWhole(check: FolderCheck): boolean {
    const { span } = check;
    return check.files === span.fileCount && check.skips === span.skipCount && check.folders === span.childFolders;
  }
}
