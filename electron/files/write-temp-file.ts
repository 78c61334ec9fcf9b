import { open, unlink, type FileHandle } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { findLoneSurrogate } from '../../shared/tools/lone-surrogate';

/** Anything the atomic writer accepts as content: text (written as UTF-8), bytes, or a stream of either. */
export type AtomicContent = string | Uint8Array | AsyncIterable<Uint8Array> | NodeJS.ReadableStream;

/** How the temp file is created. */
export interface TempFilePlan {
  /** The exact permission bits to give the file; undefined leaves the umask default of a new file. */
  readonly mode?: number;
  /** The owner to give the file (an existing target's), best effort. */
  readonly owner?: { readonly uid: number; readonly gid: number };
}

/** Stream chunks are gathered up to this many bytes and written with one writev. */
const batchBytes = 256 * 1024;

/** UTF-8 bytes of a string, refusing lone surrogates rather than writing U+FFFD in their place. */
function utf8Bytes(text: string, offset = 0): Buffer {
  const index = findLoneSurrogate(text);
  if (index !== -1) {
    throw new AppError(
      'invalid_request',
      `The content has a lone UTF-16 surrogate at character ${offset + index}, which has no UTF-8 form; nothing was written. Send well-formed text (or bytes).`,
      { index: offset + index },
    );
  }
  return Buffer.from(text, 'utf8');
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.byteLength;) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
    offset += bytesWritten;
  }
}

/** Writes gathered chunks with one writev (no copy), finishing a partial write chunk by chunk. */
async function writeBatch(handle: FileHandle, chunks: Uint8Array[]): Promise<void> {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  let skip = (await handle.writev(chunks)).bytesWritten;
  if (skip === total) return;
  for (const chunk of chunks) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    await writeAll(handle, chunk.subarray(skip));
    skip = 0;
  }
}

/** Streams chunks to the file, a batch at a time, so content of any size never sits in memory whole. */
async function writeStream(handle: FileHandle, stream: AsyncIterable<unknown>): Promise<number> {
  let total = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let carry = '';
  for await (const chunk of stream) {
    let bytes: Uint8Array;
    if (typeof chunk === 'string') {
      // A surrogate pair may be split across two text chunks: hold a trailing high surrogate back.
      let text = carry + chunk;
      const last = text.charCodeAt(text.length - 1);
      carry = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
      if (carry !== '') text = text.slice(0, -1);
      bytes = utf8Bytes(text, total);
    } else if (chunk instanceof Uint8Array) {
      bytes = chunk;
    } else {
      throw new AppError(
        'invalid_request',
        'A content stream yielded something other than bytes or text; nothing was written.',
      );
    }
    pending.push(bytes);
    pendingBytes += bytes.byteLength;
    total += bytes.byteLength;
    if (pendingBytes >= batchBytes) {
      await writeBatch(handle, pending);
      pending = [];
      pendingBytes = 0;
    }
  }
  if (carry !== '') utf8Bytes(carry, total);
  if (pending.length > 0) await writeBatch(handle, pending);
  return total;
}

async function writeContent(handle: FileHandle, content: AtomicContent): Promise<number> {
  if (typeof content === 'string') {
    const bytes = utf8Bytes(content);
    await writeAll(handle, bytes);
    return bytes.byteLength;
  }
  if (content instanceof Uint8Array) {
    await writeAll(handle, content);
    return content.byteLength;
  }
  return writeStream(handle, content as AsyncIterable<unknown>);
}

/**
 * Creates `tempPath` (it must not exist), writes the content, gives it its owner and mode, and
 * fsyncs it, so that once renamed it is complete on disk. On any failure the temp file is removed
 * before the error propagates. Resolves to the number of bytes written.
 */
export async function writeTempFile(tempPath: string, content: AtomicContent, plan: TempFilePlan): Promise<number> {
  // A mode that is set afterwards starts private, so content is never readable with wider bits.
  const createMode = plan.mode === undefined ? 0o666 : 0o600;
  const handle = await open(tempPath, 'wx', createMode);
  try {
    const bytes = await writeContent(handle, content);
    if (plan.owner !== undefined) await handle.chown(plan.owner.uid, plan.owner.gid).catch(() => undefined);
    if (plan.mode !== undefined) await handle.chmod(plan.mode);
    await handle.sync();
    await handle.close();
    return bytes;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
}
