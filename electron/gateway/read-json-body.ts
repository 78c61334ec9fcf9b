import type { IncomingMessage } from 'node:http';

/** A parsed request body, or why it could not be read (with the HTTP status to answer). */
export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly message: string };

/**
 * Reads and parses a JSON request body, refusing one larger than `maxBytes` before buffering it.
 * Total: a body that ends early (the client went away) is a 400 like one that is not JSON.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    return { ok: false, status: 413, message: `The request body is larger than ${maxBytes} bytes.` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Keep the stream alive on an early exit, so the 413 answer can still be sent.
    for await (const chunk of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        request.resume();
        return { ok: false, status: 413, message: `The request body is larger than ${maxBytes} bytes.` };
      }
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, status: 400, message: 'The request body ended before it was complete.' };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'The request body is not valid JSON.' };
  }
}
