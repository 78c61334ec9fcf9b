import { open } from 'node:fs/promises';

/** What the first read asks for: a ref, a lock file or a small JSON record fits many times over. */
const firstReadBytes = 4096;

/**
 * A file's text from an open, one read and a close: three trips through the thread pool where
 * `readFile` takes four (it asks the file's size first). A read that fills its buffer goes on
 * with a bigger one until a read comes back short, so a file of any size is read whole. A read of
 * a regular file returns fewer bytes than asked only at the file's end (POSIX; Linux and macOS
 * local file systems never cut such a read short otherwise). Fails as `readFile` does (ENOENT, …).
 */
export async function readSmallFile(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let size = firstReadBytes; ; size *= 2) {
      const buffer = Buffer.allocUnsafe(size);
      const { bytesRead } = await handle.read(buffer, 0, size, null);
      chunks.push(buffer.subarray(0, bytesRead));
      if (bytesRead < size) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    await handle.close();
  }
}
