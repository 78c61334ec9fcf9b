import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { findMessageId } from './find-message-id';

/** How a stdio session ended: its input closed, or a message that could not be answered (exit status 1). */
export type StdioEnd = { readonly kind: 'input-closed' } | { readonly kind: 'fatal'; readonly message: string };

/** What the transport reads, writes and allows. */
export interface StdioMessageTransportOptions {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** The largest message accepted, in bytes (newline excluded). */
  readonly maxMessageBytes: number;
}

/** How much of an oversized message is kept to find its id: its start and its end. */
const keptEdgeBytes = 64 * 1024;

const mebibytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * MCP over stdio (newline-delimited JSON-RPC), for `vigil mcp`, failing loudly where the SDK's
 * StdioServerTransport fails silently: a message over `maxMessageBytes` is answered with a JSON-RPC
 * error naming the limit (or, when its id cannot be found, ends the session as fatal: a stderr line
 * and exit status 1), a line that is not JSON-RPC is answered with a parse error, and the end of
 * stdin always ends the session (`ended`), however the input stopped. It never buffers more than
 * the limit: the rest of an oversized line is discarded as it streams in.
 */
export class StdioMessageTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves once, when the input has closed or a message could not be answered. */
  readonly ended: Promise<StdioEnd>;

  readonly #options: StdioMessageTransportOptions;
  #resolveEnded!: (end: StdioEnd) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while an oversized line streams past: its size, first and last bytes. */
  #oversized: { bytes: number; head: Buffer; tail: Buffer } | undefined;
  #isClosed = false;

  constructor(options: StdioMessageTransportOptions) {
    this.#options = options;
    this.ended = new Promise((resolve) => {
      this.#resolveEnded = resolve;
    });
  }

  start(): Promise<void> {
    const { stdin } = this.#options;
    stdin.on('data', this.#onData);
    stdin.once('end', this.#onEnd);
    stdin.once('close', this.#onEnd);
    stdin.on('error', this.#onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    const { stdout } = this.#options;
    return new Promise((resolve) => {
      if (stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdout.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.#finish({ kind: 'input-closed' });
    return Promise.resolve();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    let buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let newline = buffer.indexOf(0x0a); newline !== -1 && !this.#isClosed; newline = buffer.indexOf(0x0a)) {
      this.#take(buffer.subarray(0, newline));
      this.#endLine();
      buffer = buffer.subarray(newline + 1);
    }
    if (buffer.length > 0 && !this.#isClosed) this.#take(buffer);
  };

  readonly #onEnd = (): void => {
    if (this.#oversized !== undefined) {
      const { bytes } = this.#oversized;
      this.#finish({
        kind: 'fatal',
        message: `vigil mcp: stdin ended inside a message of at least ${mebibytes(bytes)}, over the ${mebibytes(this.#options.maxMessageBytes)} limit; it was not answered.`,
      });
      return;
    }
    if (this.#pendingBytes > 0) this.#endLine();
    this.#finish({ kind: 'input-closed' });
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** Adds bytes of the current line: kept up to the limit, then only its edges. */
  #take(bytes: Buffer): void {
    if (this.#oversized !== undefined) {
      const oversized = this.#oversized;
      oversized.bytes += bytes.length;
      oversized.tail = Buffer.concat([oversized.tail, bytes]).subarray(-keptEdgeBytes);
      return;
    }
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes <= this.#options.maxMessageBytes) return;
    const line = Buffer.concat(this.#pending);
    this.#oversized = {
      bytes: line.length,
      head: line.subarray(0, keptEdgeBytes),
      tail: line.subarray(-keptEdgeBytes),
    };
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #endLine(): void {
    const oversized = this.#oversized;
    this.#oversized = undefined;
    if (oversized !== undefined) {
      this.#refuseOversized(oversized);
      return;
    }
    const line = Buffer.concat(this.#pending).toString('utf8').replace(/\r$/u, '');
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.trim() === '') return;
    this.#deliver(line);
  }

  #deliver(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // No id can be known: the answer has none (the MCP SDKs refuse the spec's `"id": null`).
      void this.send({
        jsonrpc: '2.0',
        error: {
          code: -32700,
          message: 'Parse error: a line on stdin is not JSON. Send one JSON-RPC message per line.',
        },
      });
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      const id = findMessageId(line.slice(0, keptEdgeBytes), line.slice(-keptEdgeBytes));
      void this.send({
        jsonrpc: '2.0',
        // JSON-RPC: an error with no request id to answer carries no `id` key.
        ...(id === undefined ? {} : { id }),
        error: { code: -32600, message: 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.' },
      });
      return;
    }
    this.onmessage?.(message.data);
  }

  #refuseOversized(oversized: { bytes: number; head: Buffer; tail: Buffer }): void {
    const limit = this.#options.maxMessageBytes;
    const id = findMessageId(oversized.head.toString('utf8'), oversized.tail.toString('utf8'));
    const what = `a message of ${mebibytes(oversized.bytes)} (${oversized.bytes} bytes), over vigil mcp's limit of ${mebibytes(limit)} (${limit} bytes)`;
    if (id === undefined) {
      this.#finish({
        kind: 'fatal',
        message: `vigil mcp: stdin sent ${what}, with no id to answer it; stopping (exit status 1). Send smaller messages: split a large file across several calls.`,
      });
      return;
    }
    void this.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32600,
        message: `The request is ${what}; it was not run. Send less per call: split a large file across several calls.`,
        data: { code: 'limit_exceeded', limitBytes: limit, messageBytes: oversized.bytes },
      },
    });
  }

  #finish(end: StdioEnd): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    const { stdin } = this.#options;
    stdin.off('data', this.#onData);
    stdin.off('end', this.#onEnd);
    stdin.off('close', this.#onEnd);
    stdin.off('error', this.#onError);
    // Nothing reads stdin any more: let it go, so it never holds the process open.
    stdin.destroy();
    this.#pending = [];
    this.#oversized = undefined;
    this.#resolveEnded(end);
    this.onclose?.();
  }
}
