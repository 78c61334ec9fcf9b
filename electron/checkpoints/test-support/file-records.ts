import { fileModes, hashObject } from '../../git-store/git-objects';
import type { FileRecord } from '../snapshot/dir-state';

/** A record for file number `index` (its blob id made up, its stat distinct), at a given version of its content. */
export function fakeRecord(index: number, version = 0): FileRecord {
  return {
    mode: index % 7 === 0 ? fileModes.executable : fileModes.file,
    oid: hashObject('blob', Buffer.from(`file ${index} version ${version}`)),
    size: index * 3 + version,
    mtimeNs: 1_700_000_000_000_000_000n + BigInt(index * 1_000 + version),
    ctimeNs: 1_700_000_000_000_000_500n + BigInt(index * 1_000 + version),
    ino: 10_000n + BigInt(index),
  };
}
