import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCredentialFor } from '../test-support/agent-credential';
import { spawnVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { readServeInfo } from './serve-info';
import WebSocket from 'ws';
import fc from 'fast-check';
import { frame, fuzzCase, type FuzzCase, type FuzzTarget } from './test-support/http-fuzz-arbitraries';

/**
 * fast-check's seed; set VIGIL_FUZZ_SEED (and VIGIL_FUZZ_PATH, which a failure prints) to replay a
 * failure. Cases are sent in batches, eight at a time; a failing batch shrinks to its one smallest
 * failing request.
 */
const seed = Number(process.env['VIGIL_FUZZ_SEED'] ?? 0x5eed_2026);
const replayPath = process.env['VIGIL_FUZZ_PATH'];
/** Batches of 1 to 50 cases, about 26 on average: about 10,000 cases in all. */
const batchSize = 50;
const batches = 380;
const parallel = 8;

let temp: { dir: string; remove: () => Promise<void> };
let server: ReturnType<typeof spawnVigil>;
let target: FuzzTarget;
let output = '';

beforeAll(async () => {
  temp = await makeTempDir('vigil-fuzz-');
  const home = path.join(temp.dir, 'home');
  server = spawnVigil(['serve', '--port', '0'], { env: { VIGIL_HOME: home, HOME: temp.dir } });
  await new Promise<void>((resolve) => {
    const onData = (chunk: string): void => {
      output += chunk;
      if (output.includes('url: ')) resolve();
    };
    server.stdout.setEncoding('utf8').on('data', onData);
    server.stderr.setEncoding('utf8').on('data', onData);
    server.once('exit', () => resolve());
  });
  const info = await readServeInfo(path.join(home, 'serve.json'));
  if (info?.port == null) throw new Error(`vigil serve did not start:\n${output}`);
  target = {
    port: info.port,
    uiToken: info.token,
    agentToken: await agentCredentialFor(home, 'fuzz'),
    hasUi: !output.includes('the UI is not built'),
  };
}, 90_000);

afterAll(async () => {
  if (server.exitCode === null) {
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await temp.remove();
});

/** Sends one case over a fresh connection and resolves with the first final status it got ('none' when the server answered nothing). */
function send(fuzzCase: FuzzCase): Promise<number | 'none'> {
  return new Promise((resolve) => {
    const socket = connect(target.port, '127.0.0.1');
    let received = '';
    let isDone = false;
    const finish = (status: number | 'none'): void => {
      if (isDone) return;
      isDone = true;
      socket.destroy();
      resolve(status);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      // Skip interim "100 Continue" answers; the first other status line is the answer.
      for (const match of received.matchAll(/HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/g)) {
        const status = Number(match[1]);
        if (status !== 100) finish(status);
      }
    });
    socket.on('error', () => finish('none'));
    socket.on('close', () => finish('none'));
    // Every request is followed by a half-close, so an incomplete one is answered at once instead of
    // waiting for bytes that never come; a well-formed upgrade keeps its side open, as WebSocket clients do.
    if (fuzzCase.expected === 101) socket.write(fuzzCase.bytes);
    else socket.end(fuzzCase.bytes);
  });
}

/** Why one case's answer is wrong, or undefined when the server answered as it must. */
async function check(fuzzCase: FuzzCase, statuses: Map<string, number>): Promise<string | undefined> {
  const status = await send(fuzzCase);
  statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
  const isAnswer = status !== 'none' && status < 500;
  const isExpected = fuzzCase.expected === undefined ? isAnswer : status === fuzzCase.expected;
  // A request cut to nothing, or to less than a request line, may get no answer at all.
  const mayGoUnanswered = status === 'none' && fuzzCase.bytes.indexOf('\n') === -1;
  if (isExpected || mayGoUnanswered) return undefined;
  return `${fuzzCase.label}: got ${status}${fuzzCase.expected === undefined ? '' : `, expected ${fuzzCase.expected}`}; bytes ${JSON.stringify(fuzzCase.bytes.subarray(0, 300).toString('latin1'))}`;
}

/** Sends a batch of cases, `parallel` at a time; the failures, in no particular order. */
async function sendBatch(cases: readonly FuzzCase[], statuses: Map<string, number>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let fuzzCase = cases[next++]; fuzzCase !== undefined; fuzzCase = cases[next++]) {
      const failure = await check(fuzzCase, statuses);
      if (failure !== undefined) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: parallel }, () => worker()));
  return failures;
}

/** fast-check's run parameters: the fixed seed (and a failure's path, to replay it). */
function runParameters(numRuns: number, runSeed: number): fc.Parameters<unknown> {
  return { seed: runSeed, numRuns, ...(replayPath === undefined ? {} : { path: replayPath }) };
}

describe('the network edge is total', () => {
  it(`answers about 10,000 random and mutated requests and upgrades with a 4xx or the expected success, never a 500, and stays up`, async () => {
    process.stdout.write(
      `http fuzz seed ${seed}: replay with VIGIL_FUZZ_SEED=${seed} npx vitest run electron/server/http-fuzz.test.ts\n`,
    );
    const statuses = new Map<string, number>();
    const property = fc.asyncProperty(
      fc.array(fuzzCase(target), { minLength: 1, maxLength: batchSize, size: 'max' }),
      async (cases) => {
        const failures = await sendBatch(cases, statuses);
        expect(failures, `seed ${seed}`).toEqual([]);
      },
    );
    await fc.assert(property, runParameters(batches, seed));
    process.stdout.write(
      `http fuzz seed ${seed}: ${[...statuses.values()].reduce((sum, count) => sum + count, 0)} cases, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
    expect(server.exitCode, `seed ${seed}: vigil serve exited:\n${output}`).toBeNull();
    const after = await fetch(`http://127.0.0.1:${target.port}/ws`, {
      headers: { authorization: `Bearer ${target.uiToken}` },
    });
    expect(after.status).toBe(426);
    const log = await readFile(path.join(temp.dir, 'home', 'logs', 'vigil.log'), 'utf8');
    expect(log, `seed ${seed}: a request reached the 500 path`).not.toMatch(
      /HTTP request failed|WebSocket upgrade failed/,
    );
  }, 600_000);

  it('answers random frames on /ws and /agent without closing the socket or failing a handler', async () => {
    for (const [route, token] of [
      ['/ws', target.uiToken],
      ['/agent', target.agentToken],
    ] as const) {
      const property = fc.asyncProperty(fc.array(frame, { minLength: 500, maxLength: 500 }), async (frames) => {
        const socket = new WebSocket(`ws://127.0.0.1:${target.port}${route}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        let closedWith: number | undefined;
        socket.on('close', (code) => (closedWith = code));
        for (const each of frames) socket.send(each.data, { binary: each.isBinary });
        // The socket still answers a well-formed message after all of them (frames are answered in order of completion).
        const probe =
          route === '/ws'
            ? { type: 'call', id: 999_999, channel: 'app:info', payload: {} }
            : { jsonrpc: '2.0', id: 'probe-999999', method: 'session.history', params: { sessionId: 'none' } };
        const answered = new Promise<boolean>((resolve) => {
          socket.on('message', (data: Buffer) => data.toString('utf8').includes('999999') && resolve(true));
          socket.on('close', () => resolve(false));
        });
        socket.send(JSON.stringify(probe));
        expect(await answered, `seed ${seed}: ${route} stopped answering`).toBe(true);
        expect(closedWith, `seed ${seed}: ${route} closed the socket`).toBeUndefined();
        socket.close();
      });
      await fc.assert(property, runParameters(1, seed ^ 0xf4a3e5));
    }
    expect(server.exitCode).toBeNull();
    const log = await readFile(path.join(temp.dir, 'home', 'logs', 'vigil.log'), 'utf8');
    expect(log, `seed ${seed}: a frame handler failed`).not.toMatch(/frame handling failed|agent method failed/);
  }, 120_000);
});
