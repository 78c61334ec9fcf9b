import type { Socket } from 'node:net';

/** The status and headers of an HTTP answer (header names lower-cased). */
export interface AnswerHead {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
}

/** What reading an answer reports: its head once, its body as text as it comes, then the end (with the socket's error, if any). */
export interface AnswerHandlers {
  /** An interim (1xx) answer, such as `100 Continue`; the final head follows it. */
  readonly onInterim?: (head: AnswerHead) => void;
  readonly onHead: (head: AnswerHead) => void;
  readonly onBody: (text: string) => void;
  readonly onEnd: (error: NodeJS.ErrnoException | undefined) => void;
}

/** A head longer than this is not a Vigil core's. */
const maxHeadBytes = 16 * 1024;

/** Parses `HTTP/1.x NNN reason` and `Name: value` lines; undefined when the bytes are not an HTTP answer. */
export function parseAnswerHead(text: string): AnswerHead | undefined {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
  if (status === null) return undefined;
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(status[1]), headers };
}

/** Decodes `Transfer-Encoding: chunked` as it arrives (how a core streams its frames to the relay's HTTP/1.1 request). */
function chunkDecoder(emit: (bytes: Buffer) => void): (bytes: Buffer) => void {
  let pending = Buffer.alloc(0);
  let remaining = -1;
  return (bytes) => {
    pending = Buffer.concat([pending, bytes]);
    for (;;) {
      if (remaining < 0) {
        const end = pending.indexOf('\r\n');
        if (end < 0) return;
        remaining = Number.parseInt(pending.toString('latin1', 0, end), 16);
        pending = pending.subarray(end + 2);
        if (!Number.isFinite(remaining) || remaining === 0) return;
      }
      if (pending.length < remaining + 2) return;
      emit(pending.subarray(0, remaining));
      pending = pending.subarray(remaining + 2);
      remaining = -1;
    }
  };
}

/**
 * Reads one HTTP/1.x answer from a socket that the server closes when it is done (the relay asks
 * with `Connection: close`): the head, then the body as UTF-8 text, unchunked if need be. Bytes that are not
 * an HTTP answer end it as if the socket had closed without one.
 */
export function readHttpAnswer(socket: Socket, handlers: AnswerHandlers): void {
  let headBytes = Buffer.alloc(0);
  let hasHead = false;
  let isDone = false;
  const decoder = new TextDecoder('utf-8');
  let bodyBytes = (bytes: Buffer): void => handlers.onBody(decoder.decode(bytes, { stream: true }));
  const end = (error: NodeJS.ErrnoException | undefined): void => {
    if (isDone) return;
    isDone = true;
    if (hasHead) {
      const rest = decoder.decode();
      if (rest !== '') handlers.onBody(rest);
    }
    handlers.onEnd(error);
  };
  const takeHead = (bytes: Buffer): void => {
    headBytes = Buffer.concat([headBytes, bytes]);
    const split = headBytes.indexOf('\r\n\r\n');
    if (split < 0) {
      if (headBytes.length > maxHeadBytes) socket.destroy();
      return;
    }
    const head = parseAnswerHead(headBytes.toString('latin1', 0, split));
    if (head === undefined) {
      socket.destroy();
      return;
    }
    if (head.status < 200) {
      // An interim answer (100 Continue): the final head follows, maybe in these same bytes.
      const after = headBytes.subarray(split + 4);
      headBytes = Buffer.alloc(0);
      handlers.onInterim?.(head);
      if (after.length > 0 && !isDone) takeHead(after);
      return;
    }
    hasHead = true;
    if (head.headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
      const plain = bodyBytes;
      bodyBytes = chunkDecoder(plain);
    }
    handlers.onHead(head);
    const rest = headBytes.subarray(split + 4);
    if (rest.length > 0 && !isDone) bodyBytes(rest);
  };
  socket.on('data', (bytes: Buffer) => {
    if (isDone) return;
    if (hasHead) bodyBytes(bytes);
    else takeHead(bytes);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => end(error));
  socket.on('close', () => end(undefined));
}
