/**
 * A git index's entries as a split index's merge needs them (each one's path bytes and stage) and
 * its extensions. Slower than `git-index.ts`'s one-decode path (an object per entry), so read only
 * for a split index and its shared part.
 */
import { createHash } from 'node:crypto';

/** One entry: its path's bytes (empty for a split index's replacing entry), its merge stage (0 to 3), whether it is a gitlink (a submodule). */
export interface IndexEntry {
  readonly name: Buffer;
  readonly stage: number;
  readonly isGitlink: boolean;
}

/** An index's entries in file order, and its extensions by signature (each one's data). */
export interface IndexEntries {
  readonly entries: readonly IndexEntry[];
  readonly extensions: ReadonlyMap<string, Buffer>;
  /** The trailing SHA-1 (hex; all zeros when git skipped it, `index.skipHash`). */
  readonly checksum: string;
}

/** The fixed part of an entry before its flags: ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each), the object id (20). */
const fixedBytes = 40 + 20;
const extendedFlag = 0x4000;
const nameMask = 0x0fff;

/** The entries and extensions of the index `bytes` (versions 2 to 4, checked against its SHA-1), or what is wrong with it. */
export function readIndexEntries(bytes: Uint8Array): IndexEntries | { readonly error: string } {
  if (bytes.length < 12 + 20) return { error: 'it is shorter than its header' };
  const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (whole.readUInt32BE(0) !== 0x44495243) return { error: 'it does not start with DIRC' };
  const version = whole.readUInt32BE(4);
  if (version < 2 || version > 4) return { error: `its version ${version} is not one git writes` };
  const body = whole.subarray(0, whole.length - 20);
  const trailer = whole.subarray(whole.length - 20);
  const isHashSkipped = trailer.every((byte) => byte === 0);
  if (!isHashSkipped && !createHash('sha1').update(body).digest().equals(trailer))
    return { error: 'its checksum does not match its content (damaged or half-written)' };
  const count = body.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let index = 0; index < count; index += 1) {
    const start = offset;
    if (start + fixedBytes + 2 > body.length) return { error: `it ends inside entry ${index + 1}` };
    const flags = body.readUInt16BE(start + fixedBytes);
    offset = start + fixedBytes + 2 + ((flags & extendedFlag) !== 0 && version >= 3 ? 2 : 0);
    const read = version === 4 ? v4Name(body, offset, previous) : v2Name(body, offset, flags & nameMask);
    if (read === undefined) return { error: `it ends inside entry ${index + 1}` };
    entries.push({
      name: read.name,
      stage: (flags >> 12) & 3,
      isGitlink: isGitlinkMode(body.readUInt32BE(start + 24)),
    });
    previous = read.name;
    // Versions 2 and 3 pad each entry with 1–8 NULs to a multiple of 8 bytes from its start; version 4 does not.
    offset = version === 4 ? read.end : start + Math.ceil((read.end - start) / 8) * 8;
  }
  const extensions = new Map<string, Buffer>();
  while (offset + 8 <= body.length) {
    const size = body.readUInt32BE(offset + 4);
    if (offset + 8 + size > body.length) return { error: 'it ends inside an extension' };
    extensions.set(body.toString('latin1', offset, offset + 4), body.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return { entries, extensions, checksum: trailer.toString('hex') };
}

/** Whether an entry's mode (at offset 24 of the entry) is a gitlink's, 160000: a submodule's commit. */
export function isGitlinkMode(mode: number): boolean {
  return (mode & 0o170000) === 0o160000;
}

/** A version 2 or 3 path: `length` bytes (or up to the NUL past 4,094), then a NUL. */
function v2Name(body: Buffer, offset: number, length: number): { name: Buffer; end: number } | undefined {
  const nul = length < nameMask ? offset + length : body.indexOf(0, offset);
  if (nul < 0 || nul >= body.length) return undefined;
  return { name: body.subarray(offset, nul), end: nul + 1 };
}

/** A version 4 path: a varint of bytes to drop from the previous path, then a NUL-terminated suffix. */
export function v4Name(body: Buffer, offset: number, previous: Buffer): { name: Buffer; end: number } | undefined {
  let at = offset;
  if (at >= body.length) return undefined;
  let value = body[at++] ?? 0;
  let drop = value & 0x7f;
  while ((value & 0x80) !== 0) {
    if (at >= body.length) return undefined;
    value = body[at++] ?? 0;
    drop = ((drop + 1) << 7) | (value & 0x7f);
  }
  const nul = body.indexOf(0, at);
  if (nul < 0 || drop > previous.length) return undefined;
  const name = Buffer.concat([previous.subarray(0, previous.length - drop), body.subarray(at, nul)]);
  return { name, end: nul + 1 };
}
