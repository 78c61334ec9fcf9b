/** The largest hook event read (a Write of a big file carries the whole file). */
export const maxHookInputBytes = 64 * 1024 * 1024;

/** Reads stdin to its end as UTF-8; rejects when it is larger than the limit. */
export async function readHookInput(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    size += buffer.length;
    if (size > maxHookInputBytes) throw new Error(`stdin is larger than ${maxHookInputBytes / (1024 * 1024)} MiB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
