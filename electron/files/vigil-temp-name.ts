import { randomBytes } from 'node:crypto';
import { threadId } from 'node:worker_threads';

/** What a Vigil temp file's name records about the writer that created it. */
export interface VigilTempName {
  /** The process that created the temp file. */
  readonly pid: number;
  /** The worker thread inside that process (0 for the main thread). */
  readonly thread: number;
}

/** The marker between the target's base name and the writer's identity. */
const marker = '.vigil-tmp-';

/** `.<basename>.vigil-tmp-<pid>-<thread>-<12 hex>`, anchored so that no ordinary name matches by accident. */
const pattern = /^\..*\.vigil-tmp-(\d{1,10})-(\d{1,10})-[0-9a-f]{12}$/su;

/** Base names longer than this many UTF-8 bytes are shortened in the temp name, which must stay under 255 bytes. */
const maxBaseBytes = 180;

/** Shortens a name to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  let bytes = 0;
  let end = 0;
  for (const character of name) {
    const size = Buffer.byteLength(character);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return name.slice(0, end);
}

/** Random bytes drawn from the generator in bulk: one call per 4 KiB, not one per temp name (each cost ~10 µs). */
const randomPoolBytes = 4096;
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

/** `bytes` fresh random bytes from the pool, in hex; every byte is used once. */
function randomHex(bytes: number): string {
  if (randomOffset + bytes > randomPool.length) {
    randomPool = randomBytes(randomPoolBytes);
    randomOffset = 0;
  }
  const hex = randomPool.toString('hex', randomOffset, randomOffset + bytes);
  randomOffset += bytes;
  return hex;
}

/**
 * A fresh temp-file name for writing `baseName` in the same directory: hidden, recognisable, and
 * recording this process's pid and thread so that a later sweep can tell a dead writer's leftovers.
 */
export function vigilTempName(baseName: string): string {
  return `.${truncateUtf8(baseName, maxBaseBytes)}${marker}${process.pid}-${threadId}-${randomHex(6)}`;
}

/** The writer recorded in a Vigil temp file's name, or undefined when the name is not one of Vigil's. */
export function parseVigilTempName(name: string): VigilTempName | undefined {
  // Most names looked at (every listing, every watcher event) are not temp files: no slice, no pattern for them.
  if (!name.includes(marker)) return undefined;
  const baseName = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const match = pattern.exec(baseName);
  if (match === null) return undefined;
  return { pid: Number(match[1]), thread: Number(match[2]) };
}

/** Whether a file name (or path) is one of Vigil's temp files, which checkpoints and watchers must ignore. */
export function isVigilTempFile(name: string): boolean {
  return parseVigilTempName(name) !== undefined;
}

/**
 * Vigil's lock and last-write record beside a memory file: `.MEMORY.md.vigil-lock`,
 * `.MEMORY.md.vigil-record`, and the lock's short-lived temp and takeover-claim files
 * (`.MEMORY.md.vigil-lock.new-<pid>-<hex>`, `.MEMORY.md.vigil-lock.takeover-<token>`).
 */
const bookkeepingPattern = /^\..+\.vigil-(?:lock(?:\.(?:new|takeover)-[^/\\]+)*|record)$/su;

/**
 * Whether a file name (or path) is Vigil's own: a temp file, or the lock and write record it
 * keeps beside a memory file. Checkpoints, restores and listings leave these out.
 */
export function isVigilBookkeepingFile(name: string): boolean {
  const baseName = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  // Every such name is hidden (both patterns start with a dot): the common case costs no pattern match.
  if (!baseName.startsWith('.')) return false;
  return isVigilTempFile(baseName) || bookkeepingPattern.test(baseName);
}
