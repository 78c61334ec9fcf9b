import type { DirNode } from './dir-state';
import { fileCountOf, SavedFolder, skipCountOf, type SavedSpan } from './saved-folder';
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

/** Some folders' entries in columns, with where each folder's sit and the counts the header states. */
export interface EncodedBody {
  readonly columns: BodyColumns;
  readonly spans: Array<[string, SavedSpan]>;
  readonly at: BodyCursor;
  readonly folders: number;
  readonly files: number;
}

/**
 * Encodes `nodes` (parents first) into columns sized first and filled in place: no per-file arrays
 * to join or copy. Yields after about every `filesPerSlice` files re-encoded (the caller may
 * return to the event loop there); the body is complete once the generator is done.
 */
export function* encodeBody(
  nodes: ReadonlyArray<readonly [string, Readonly<DirNode>]>,
  filesPerSlice: number,
  out: { body?: EncodedBody },
): Generator<void> {
  let [folders, files, entries, trees] = [0, 0, 0, 0];
  for (const [, node] of nodes) {
    folders += 1;
    files += fileCountOf(node);
    entries += fileCountOf(node) + skipCountOf(node);
    if (node.tree !== undefined) trees += 1;
  }
  const columns: BodyColumns = {
    shape: new Uint32Array(folders * 3 + entries),
    names: new Array<string>(folders + entries),
    oids: Buffer.alloc((trees + files) * 20),
    sizes: new Float64Array(files),
    times: new BigInt64Array(files * 2),
    inodes: new BigUint64Array(files),
  };
  const at: BodyCursor = { shape: 0, name: 0, oid: 0, file: 0 };
  const spans: Array<[string, SavedSpan]> = [];
  let sinceYield = 0;
  for (const [rel, node] of nodes) {
    columns.names[at.name++] = rel;
    columns.shape[at.shape++] = node.tree === undefined ? 0 : 1;
    columns.shape[at.shape++] = fileCountOf(node);
    columns.shape[at.shape++] = skipCountOf(node);
    if (node.tree !== undefined) at.oid += columns.oids.write(node.tree, at.oid, 'hex');
    const { name: nameStart, shape: shapeStart, file: fileStart, oid: oidStart } = at;
    spans.push([
      rel,
      { nameStart, shapeStart, fileStart, oidStart, fileCount: fileCountOf(node), skipCount: skipCountOf(node) },
    ]);
    sinceYield += node instanceof SavedFolder && node.isFilesSaved ? 0 : node.files.size;
    encodeFiles(node, columns, at);
    encodeSkips(node, columns, at);
    if (sinceYield >= filesPerSlice) {
      sinceYield = 0;
      yield;
    }
  }
  // The state is not changed while it is encoded (the store lock is held); a body that does not add up is never used.
  if (
    at.shape !== columns.shape.length ||
    at.name !== columns.names.length ||
    at.oid !== columns.oids.length ||
    at.file !== files
  )
    throw new Error('the directory state changed while its stat cache was being encoded');
  out.body = { columns, spans, at, folders, files };
}
