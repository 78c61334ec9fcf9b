import { createServer, connect, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAnswerHead, readHttpAnswer, type AnswerHead } from './http-answer';

/** A loopback server that writes `parts` as separate writes (with a pause between), then closes. */
async function serve(parts: readonly (string | Buffer)[]): Promise<Server> {
  const server = createServer((socket) => {
    void (async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      socket.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Reads one answer from `server` the way the relay does. */
function read(server: Server): Promise<{ head?: AnswerHead; body: string; error?: string; interim?: number[] }> {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let head: AnswerHead | undefined;
    let body = '';
    const interim: number[] = [];
    readHttpAnswer(socket, {
      onInterim: (answer) => interim.push(answer.status),
      onHead: (answer) => (head = answer),
      onBody: (text) => (body += text),
      onEnd: (error) =>
        resolve({
          ...(head === undefined ? {} : { head }),
          body,
          ...(error ? { error: error.code } : {}),
          ...(interim.length > 0 ? { interim } : {}),
        }),
    });
  });
}

describe('reading a relayed call’s HTTP answer', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('parses a head split across writes and a body whose UTF-8 characters are split too', async () => {
    const body = Buffer.from('{"type":"result","name":"café ✓"}\n');
    const cut = body.indexOf(0xa9); // inside "é"
    const server = await serve([
      'HTTP/1.1 200 OK\r\nX-Vigil-Con',
      'tract: 1\r\nContent-Type: application/x-ndjson\r\n\r\n',
      body.subarray(0, cut),
      body.subarray(cut),
    ]);
    servers.push(server);
    const answer = await read(server);
    expect(answer.head?.status).toBe(200);
    expect(answer.head?.headers.get('x-vigil-contract')).toBe('1');
    expect(answer.body).toBe(body.toString());
  });

  it('reports a 100 Continue apart and reads the final head after it, in the same write or the next', async () => {
    const together = await serve(['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-Vigil-Contract: 1\r\n\r\nok']);
    const apart = await serve(['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 2', '00 OK\r\nX-Vigil-Contract: 1\r\n\r\nok']);
    servers.push(together, apart);
    for (const server of [together, apart]) {
      const answer = await read(server);
      expect(answer.interim).toEqual([100]);
      expect(answer.head?.status).toBe(200);
      expect(answer.body).toBe('ok');
    }
  });

  it('unchunks a chunked body, whatever the writes’ boundaries', async () => {
    const server = await serve([
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel',
      'lo\r\n6\r\n world\r',
      '\n0\r\n\r\n',
    ]);
    servers.push(server);
    expect((await read(server)).body).toBe('hello world');
  });

  it('ends without a head when the bytes are not an HTTP answer, or the server closes first', async () => {
    const garbage = await serve(['SSH-2.0-OpenSSH_9.2\r\n\r\n']);
    const silent = await serve([]);
    servers.push(garbage, silent);
    expect(await read(garbage)).toEqual({ body: '' });
    expect(await read(silent)).toEqual({ body: '' });
  });

  it('reads status lines and headers, and refuses what is not one', () => {
    expect(parseAnswerHead('HTTP/1.0 401 Unauthorized\r\nContent-Type:  text/plain ')).toEqual({
      status: 401,
      headers: new Map([['content-type', 'text/plain']]),
    });
    expect(parseAnswerHead('HTTP/1.1 200')?.status).toBe(200);
    expect(parseAnswerHead('HTTP/2 200 OK')).toBeUndefined();
    expect(parseAnswerHead('HTTP/1.1 200 OK\r\nno colon here')).toBeUndefined();
  });
});
