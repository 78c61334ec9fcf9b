import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { formatMs, summarize, type BenchArea } from './harness';
import { loadAverage } from './process-sample';
import { caBundleNote, withoutCaBundle } from './vigil-process';

/**
 * Why the CLI's relay client (electron/cli/relay/relay-client.ts) speaks HTTP/1.1 on a socket
 * instead of using node:http: every relayed `vigil` command and agent hook is a new process, and
 * what a process loads is paid on every call. Three scripts run alternately as whole processes
 * against one loopback server that answers like a Vigil core (100 Continue, then a head and one result frame): an
 * empty module (Node's own start), the call through node:http, and the same call on a node:net
 * socket as the relay client makes it. Each child reports its own CPU time at exit. A fourth
 * loads shell-quote (CommonJS, from an ES module, as the CLI is) to quote one undo command: why a
 * relayed restore prints its commands with the CLI's own quoteShellWords instead.
 */

/** shell-quote as an ES module imports it (its CommonJS entry). */
const shellQuoteUrl = pathToFileURL(createRequire(import.meta.url).resolve('shell-quote')).href;

const exitReport =
  "process.on('exit', () => { const c = process.cpuUsage(); process.stderr.write('CPU ' + (c.user + c.system) + '\\n'); });";

const scripts = {
  empty: `${exitReport}\n`,
  http: `${exitReport}
import { request } from 'node:http';
const body = JSON.stringify({ channel: 'checkpoints:list', payload: { dir: '/tmp' }, events: [] });
const req = request({ host: '127.0.0.1', port: Number(process.argv[2]), path: '/ws', method: 'POST', agent: false,
  headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json', Accept: 'application/x-ndjson', 'Content-Length': Buffer.byteLength(body),
    Expect: '100-continue', Connection: 'close' } },
  (res) => { let text = ''; res.setEncoding('utf8'); res.on('data', (c) => (text += c)); res.on('end', () => { if (!text.includes('"result"')) process.exitCode = 1; }); });
req.on('continue', () => req.end(body));
`,
  socket: `${exitReport}
import { connect } from 'node:net';
const body = JSON.stringify({ channel: 'checkpoints:list', payload: { dir: '/tmp' }, events: [] });
const socket = connect({ host: '127.0.0.1', port: Number(process.argv[2]) }, () => {
  socket.write(['POST /ws HTTP/1.1', 'Host: 127.0.0.1:' + process.argv[2], 'Authorization: Bearer t', 'Content-Type: application/json',
    'Accept: application/x-ndjson', 'Content-Length: ' + Buffer.byteLength(body), 'Expect: 100-continue', 'Connection: close', '', ''].join('\\r\\n'));
});
let text = '';
let sent = false;
socket.setEncoding('utf8');
socket.on('data', (c) => {
  text += c;
  if (!sent && text.startsWith('HTTP/1.1 100')) { sent = true; socket.write(body); }
});
socket.on('close', () => { if (!text.includes('"result"')) process.exitCode = 1; });
`,
  shellQuote: `${exitReport}
import shellQuote from '${shellQuoteUrl}';
if (shellQuote.quote(['vigil', 'checkpoints', 'restore', '/home/ann/My Project', '3']).length === 0) process.exitCode = 1;
`,
} as const;

type ScriptName = keyof typeof scripts;

/** A loopback server answering each POST like a core answers a relayed call. */
async function fakeCore(): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'X-Vigil-Contract': '1' });
      response.flushHeaders();
      response.end(`${JSON.stringify({ type: 'result', id: null, result: { ok: true, value: [] } })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : 0 };
}

/** Runs one script as a process (not spawnSync: the server answering it lives in this process): its wall time and the CPU time it reports. */
async function runOnce(file: string, port: number): Promise<{ wall: number; cpu: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, [file, String(port)], {
    env: withoutCaBundle(process.env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wall = performance.now() - start;
  const cpu = /CPU (\d+)/.exec(stderr);
  if (status !== 0 || cpu === null) throw new Error(`${file} failed: ${stderr}`);
  return { wall, cpu: Number(cpu[1]) / 1000 };
}

export const run: BenchArea = async (context) => {
  const runs = context.isQuick ? 5 : 40;
  const loadBefore = loadAverage();
  const base = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-relay-'));
  const { server, port } = await fakeCore();
  try {
    const names = Object.keys(scripts) as ScriptName[];
    const files = new Map<ScriptName, string>();
    for (const name of names) {
      const file = path.join(base, `${name}.mjs`);
      await writeFile(file, scripts[name]);
      files.set(name, file);
    }
    const wall = new Map<ScriptName, number[]>(names.map((name) => [name, []]));
    const cpu = new Map<ScriptName, number[]>(names.map((name) => [name, []]));
    context.log(`${runs} runs of each, alternating`);
    for (let index = 0; index < runs; index += 1) {
      for (const name of names) {
        const sample = await runOnce(files.get(name) ?? '', port);
        wall.get(name)?.push(sample.wall);
        cpu.get(name)?.push(sample.cpu);
      }
    }
    const median = (samples: Map<ScriptName, number[]>, name: ScriptName): number =>
      summarize(samples.get(name) ?? []).median;
    const label: Record<ScriptName, string> = {
      empty: 'an empty module (Node’s start)',
      http: 'one relayed call through node:http',
      socket: 'the same call on a node:net socket (what the relay client does)',
      shellQuote: 'shell-quote loaded to quote one undo command (what a relayed restore did before)',
    };
    const saved = median(cpu, 'http') - median(cpu, 'socket');
    const quoteCost = median(cpu, 'shellQuote') - median(cpu, 'empty');
    return {
      title: 'The relay client: node:http or a socket; shell-quote',
      method:
        'Whole processes, alternating run by run, against one loopback server answering like a Vigil core (the body sent after its 100 Continue, as the relay client does; then a head and one result frame). ' +
        'Each child reports its own CPU time (user + system) at exit; wall time includes process start and exit. ' +
        caBundleNote(context.isQuick ? 5 : 20) +
        ` The machine was shared with other builds and tests (1-minute load average ${loadBefore} before, ${loadAverage()} after): compare rows of one run, not runs.`,
      tables: [
        {
          caption: `Per process (medians of ${runs})`,
          columns: ['Process', 'Wall', 'CPU', 'CPU over Node’s start'],
          rows: names.map((name) => [
            label[name],
            formatMs(median(wall, name)),
            formatMs(median(cpu, name)),
            name === 'empty' ? '' : formatMs(median(cpu, name) - median(cpu, 'empty')),
          ]),
        },
      ],
      verdicts: [
        `The socket saves ${formatMs(saved)} of CPU per relayed process against node:http, ${((100 * saved) / median(cpu, 'http')).toFixed(0)}% of the whole node:http process (${saved > 0 ? 'kept: every relayed `vigil` command and every agent hook event is such a process, and node:http is loaded by nothing else on that path; the client and its answer parser are covered by relay-client.test.ts and http-answer.test.ts' : 'no gain: node:http would do'}).`,
        `Loading shell-quote costs ${formatMs(quoteCost)} of CPU over Node's start in every process that prints a command with it; a relayed restore prints its undo command with the CLI's own quoteShellWords (20 lines, bundled with the command; electron/cli/shell-words.test.ts checks its output equals shell-quote's and that sh splits it back into the same words).`,
      ],
    };
  } finally {
    server.close();
    await rm(base, { recursive: true, force: true });
  }
};
