import type { DirNode } from './dir-state';
import { SavedFolder } from './saved-folder';
import { modes, reasons } from './stat-cache-format';

/** The body's columns being filled. */
export interface BodyColumns {
  readonly shape: Uint32Array;
  readonly names: string[];
  readonly oids: Buffer;
  readonly sizes: Float64Array;
  readonly times: BigInt64Array;
  readonly inodes: BigUint64Array;
}

/** Where the next value of each column goes. */
export interface BodyCursor {
  shape: number;
  name: number;
  oid: number;
  file: number;
}

/** A folder's files into the columns: a saved folder's never decoded files are copied back in bulk. */
export function encodeFiles(node: DirNode, columns: BodyColumns, at: BodyCursor): void {
  if (node instanceof SavedFolder && node.isFilesSaved) {
    const { span, columns: saved } = node;
    const { fileCount, fileStart } = span;
    for (let index = 0; index < fileCount; index += 1)
      columns.names[at.name++] = saved.names[span.nameStart + index] ?? '';
    columns.shape.set(saved.shape.subarray(span.shapeStart, span.shapeStart + fileCount), at.shape);
    at.shape += fileCount;
    // TypedArray#set, not Buffer#copy: one native call (Buffer#copy's JS argument checks cost ~7 µs a folder).
    columns.oids.set(saved.oids.subarray(span.oidStart, span.oidStart + fileCount * 20), at.oid);
    at.oid += fileCount * 20;
    columns.sizes.set(saved.sizes.subarray(fileStart, fileStart + fileCount), at.file);
    columns.times.set(saved.times.subarray(fileStart * 2, (fileStart + fileCount) * 2), at.file * 2);
    columns.inodes.set(saved.inodes.subarray(fileStart, fileStart + fileCount), at.file);
    at.file += fileCount;
    return;
  }
  for (const [fileName, record] of node.files) {
    columns.names[at.name++] = fileName;
    at.oid += columns.oids.write(record.oid, at.oid, 'hex');
    columns.shape[at.shape++] = modes.indexOf(record.mode);
    columns.sizes[at.file] = record.size;
    columns.times[at.file * 2] = record.mtimeNs;
    columns.times[at.file * 2 + 1] = record.ctimeNs;
    columns.inodes[at.file] = record.ino;
    at.file += 1;
  }
}

/** A folder's skips into the columns: a saved folder's never decoded skips are copied back. */
export function encodeSkips(node: DirNode, columns: BodyColumns, at: BodyCursor): void {
  if (node instanceof SavedFolder && node.isSkipsSaved) {
    const { span, columns: saved } = node;
    const first = span.fileCount;
    for (let index = first; index < first + span.skipCount; index += 1)
      columns.names[at.name++] = saved.names[span.nameStart + index] ?? '';
    columns.shape.set(
      saved.shape.subarray(span.shapeStart + first, span.shapeStart + first + span.skipCount),
      at.shape,
    );
    at.shape += span.skipCount;
    return;
  }
  for (const [skippedName, reason] of node.skipped) {
    columns.names[at.name++] = skippedName;
    columns.shape[at.shape++] = reasons.indexOf(reason);
  }
}
