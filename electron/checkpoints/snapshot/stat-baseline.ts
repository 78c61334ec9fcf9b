import { constants, type BigIntStats, type Stats } from 'node:fs';
import type { SkipReason } from '../checkpoint-types';
import { gitModeOf, isRacy, maxRacyWindowNs } from './folder-listing';
import { statCacheCodes, statCacheSeparator, statCacheText, type StatCacheText } from './stat-cache-format';

const { S_IFMT, S_IFREG, S_IFLNK } = constants;

const twoTo32 = 4_294_967_296;
const nsPerSecond = 1_000_000_000;
/** Where a 64-bit number's low and high 32-bit halves sit (the stat cache's columns are in this machine's order). */
const [lowHalf, highHalf] = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? [0, 1] : [1, 0];

/**
 * The milliseconds node's plain `lstat` reports for a time of `hi * 2^32 + lo` nanoseconds (`hi`
 * signed; `lo` unsigned, or signed as an Int32Array reads it): node computes `sec * 1e3 + nsec / 1e6` from the kernel's seconds and
 * nanoseconds (0 <= nsec < 1e9), so the same arithmetic on the same two numbers gives the same
 * double, without making a BigInt. The seconds are first estimated from the nearest double (off by
 * at most one), then set right by the exact remainder modulo 2^32.
 */
export function msOfNsHalves(hi: number, lo: number): number {
  const low = lo >>> 0;
  let sec = Math.floor((hi * twoTo32 + low) / nsPerSecond);
  let nsec = (low - Math.imul(sec, nsPerSecond)) >>> 0;
  if (nsec >= twoTo32 - nsPerSecond) {
    sec -= 1;
    nsec = nsec - twoTo32 + nsPerSecond;
  } else if (nsec >= nsPerSecond) {
    sec += 1;
    nsec -= nsPerSecond;
  }
  return sec * 1000 + nsec / 1_000_000;
}

/** The largest high half of an inode number that a double still holds exactly (below 2^53). */
const maxExactInodeHigh = 2 ** 21;

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
  /** The same in milliseconds, less a margin for rounding: an mtime from this on is checked exactly. */
  readonly #surelyOldBeforeMs: number;
  /** The times and inodes as 32-bit halves, so that a plain lstat is compared with them without making a BigInt. */
  readonly #timeHalves: Int32Array;
  readonly #inodeHalves: Uint32Array;

  private constructor(
    private readonly columns: StatCacheText,
    private readonly maxFileBytes: number,
  ) {
    this.#surelyOldBeforeNs = columns.stampNs - maxRacyWindowNs;
    this.#surelyOldBeforeMs = Number(this.#surelyOldBeforeNs) / 1e6 - 1;
    const { times, inodes } = columns;
    this.#timeHalves = new Int32Array(times.buffer, times.byteOffset, times.length * 2);
    this.#inodeHalves = new Uint32Array(inodes.buffer, inodes.byteOffset, inodes.length * 2);
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
   * Whether the file `name`, whose plain lstat this is, is as its record says (the same type, mode,
   * size, times and inode, within the size cap, and not racy): what applying its listing would find.
   * The times are compared as the milliseconds node reports, computed from the record's nanoseconds
   * as node computes them: two times that differ yet give the same double are less than a
   * microsecond apart, closer than any write can follow the lstat that recorded the first (a record
   * that close to its scan's start is racy, so never trusted). `exact` is asked for a bigint lstat
   * only when the inode number is too big for a double.
   */
  isSameFile(check: FolderCheck, name: string, stats: Stats, exact: () => BigIntStats | undefined): boolean {
    const offset = this.#fileOffset(check, name);
    if (offset === undefined) return false;
    const { span } = check;
    const index = span.fileStart + offset;
    const { mode, size } = stats;
    if (!this.#isSameShape(check, offset, mode, size) || size !== this.columns.sizes[index]) return false;
    const halves = this.#timeHalves;
    const at = index * 4;
    const mtimeMs = msOfNsHalves(halves[at + highHalf] ?? 0, halves[at + lowHalf] ?? 0);
    if (
      mtimeMs !== stats.mtimeMs ||
      msOfNsHalves(halves[at + 2 + highHalf] ?? 0, halves[at + 2 + lowHalf] ?? 0) !== stats.ctimeMs
    )
      return false;
    const inodeHigh = this.#inodeHalves[index * 2 + highHalf] ?? 0;
    if (inodeHigh >= maxExactInodeHigh) {
      const bigStats = exact();
      return bigStats !== undefined && this.#isSameExactly(check, offset, bigStats);
    }
    if (stats.ino !== inodeHigh * twoTo32 + (this.#inodeHalves[index * 2 + lowHalf] ?? 0)) return false;
    const { times, stampNs } = this.columns;
    if (mtimeMs >= this.#surelyOldBeforeMs && isRacy(times[index * 2] ?? 0n, stampNs)) return false;
    check.files += 1;
    return true;
  }

  /** Whether a file of this mode and size is one the record at `offset` can match (a file or link of its mode, within the cap). */
  #isSameShape(check: FolderCheck, offset: number, mode: number, size: number): boolean {
    const type = mode & S_IFMT;
    if ((type !== S_IFREG && type !== S_IFLNK) || (type === S_IFREG && size > this.maxFileBytes)) return false;
    return gitModeOf(mode) === statCacheCodes.modes[this.columns.shape[check.span.shapeStart + offset] ?? -1];
  }

  /** `isSameFile` for the file at `offset` of the folder, by its bigint lstat (every field exact). */
  #isSameExactly(check: FolderCheck, offset: number, stats: BigIntStats): boolean {
    const size = Number(stats.size);
    if (!this.#isSameShape(check, offset, Number(stats.mode), size)) return false;
    const index = check.span.fileStart + offset;
    const { sizes, times, inodes, stampNs } = this.columns;
    const mtimeNs = times[index * 2];
    if (
      mtimeNs === undefined ||
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
