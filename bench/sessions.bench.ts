import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { VigilAgentClient } from '../agent-client/vigil-agent-client';
import { agentCredentialFor } from '../electron/test-support/agent-credential';
import { formatMs, summarize, type BenchArea, type BenchTable } from './harness';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'out/main/cli.js');
const mebibyte = 1024 * 1024;

/** The targets of issue 18: server memory stays bounded by what the UI shows, not by what was written. */
const targets = { afterWritesMiB: 250, afterRestartMiB: 150 } as const;

async function ensureBuilt(log: (line: string) => void): Promise<void> {
  if (
    await access(cli).then(
      () => true,
      () => false,
    )
  )
    return;
  log('building the app (out/ is missing)…');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      { cwd: root, stdio: 'ignore' },
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`electron-vite build exited ${String(code)}`)),
    );
  });
}

/** A process's resident set size in bytes: /proc on Linux, `ps` elsewhere. */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kib = status === undefined ? undefined : /^VmRSS:\s+(\d+) kB$/mu.exec(status)?.[1];
  if (kib !== undefined) return Number(kib) * 1024;
  const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)]);
  return Number(stdout.trim()) * 1024;
}

interface Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  readonly token: string;
  stop(): Promise<void>;
}

/** Starts the built `vigil serve` on a data folder and waits for serve.json (its port); agents connect with an agent credential. */
async function startServer(home: string, userHome: string): Promise<Server> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], {
    env: { ...process.env, VIGIL_HOME: home, HOME: userHome },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (/^url: \S+$/mu.test(output)) resolve();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)}):\n${output}`)));
  });
  const info = JSON.parse(await readFile(path.join(home, 'serve.json'), 'utf8')) as { port: number; token: string };
  return {
    child,
    port: info.port,
    // Agents never hold the UI's credential (serve.json's): they connect with an agent credential.
    token: await agentCredentialFor(home, 'bench-agent'),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** 200 KB that is unique per write (its first line) and compresses well (so the checkpoint store stays small). */
function content(session: number, write: number, bytes: number): string {
  const head = `session ${session} write ${write} ${new Date().toISOString()}\n`;
  const line = 'const value = compute(input, options); // a line of generated code\n';
  return (head + line.repeat(Math.ceil(bytes / line.length))).slice(0, bytes);
}

/** Writes through /agent: `sessions` agents at once, each `writes` writes over 20 files, a turn per 50 writes. */
async function writeThroughAgent(
  server: Server,
  workspace: string,
  sessions: number,
  writes: number,
  bytes: number,
): Promise<void> {
  const client = await VigilAgentClient.connect({
    url: `http://127.0.0.1:${server.port}/`,
    token: server.token,
    reconnect: false,
  });
  try {
    await Promise.all(
      Array.from({ length: sessions }, async (_, index) => {
        const folder = path.join(workspace, `agent-${index}`);
        await mkdir(folder, { recursive: true });
        const session = await client.openSession({ agent: `bench-agent-${index}`, roots: [folder] });
        for (let write = 0; write < writes; write += 1) {
          if (write % 50 === 0) await session.beginTurn(`turn ${write / 50 + 1}`);
          const outcome = await session.callTool('write_file', {
            path: `src/file-${write % 20}.ts`,
            content: content(index, write, bytes),
          });
          if (!outcome.result.ok) throw new Error(`write ${write} failed: ${outcome.result.error.message}`);
        }
        await session.endTurn();
      }),
    );
  } finally {
    await client.close();
  }
}

const mib = (bytes: number): string => `${(bytes / mebibyte).toFixed(0)} MiB`;

/** One run: a fresh data folder, its idle RSS, the RSS after the writes, then after restarts on that folder. */
async function oneRun(
  scratch: string,
  run: number,
  sessions: number,
  writes: number,
  bytes: number,
  restarts: number,
): Promise<{ idle: number; afterWrites: number; afterRestart: number[]; seconds: number }> {
  const home = path.join(scratch, `home-${run}`);
  const userHome = path.join(scratch, `user-${run}`);
  const workspace = path.join(scratch, `ws-${run}`);
  await Promise.all([mkdir(userHome, { recursive: true }), mkdir(workspace, { recursive: true })]);
  let server = await startServer(home, userHome);
  const afterRestart: number[] = [];
  const started = performance.now();
  try {
    const idle = await residentBytes(server.child.pid ?? 0);
    await writeThroughAgent(server, workspace, sessions, writes, bytes);
    const afterWrites = await residentBytes(server.child.pid ?? 0);
    for (let restart = 0; restart < restarts; restart += 1) {
      await server.stop();
      server = await startServer(home, userHome);
      afterRestart.push(await residentBytes(server.child.pid ?? 0));
    }
    return { idle, afterWrites, afterRestart, seconds: (performance.now() - started) / 1000 };
  } finally {
    await server.stop();
  }
}

/** Server memory after many large writes through /agent, and after a restart on that data folder. */
export const run: BenchArea = async (context) => {
  await ensureBuilt((line) => context.log(line));
  const scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-sessions-')));
  const runs = context.isQuick ? 1 : 3;
  const sessions = 5;
  const writes = context.isQuick ? 40 : 1000;
  const bytes = 200 * 1024;
  const results = [];
  try {
    await writeFile(path.join(scratch, 'README'), 'vigil bench scratch\n');
    for (let index = 0; index < runs; index += 1) {
      context.log(
        `run ${index + 1}/${runs}: ${sessions} sessions × ${writes} writes of ${bytes / 1024} KB through /agent`,
      );
      const result = await oneRun(scratch, index, sessions, writes, bytes, 3);
      context.log(
        `  idle ${mib(result.idle)}, after writes ${mib(result.afterWrites)}, after restarts ${result.afterRestart.map(mib).join(' / ')} (${result.seconds.toFixed(0)} s)`,
      );
      results.push(result);
      await rm(path.join(scratch, `ws-${index}`), { recursive: true, force: true });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const idle = summarize(results.map((result) => result.idle)).median;
  const afterWrites = summarize(results.map((result) => result.afterWrites)).median;
  const afterRestart = summarize(results.flatMap((result) => result.afterRestart)).median;
  const total = sessions * writes;
  const table: BenchTable = {
    caption: `Resident memory of \`vigil serve\` (medians of ${runs} run(s); restarts: 3 per run)`,
    columns: ['State', 'RSS', 'vs idle server (same run)', 'Target'],
    rows: [
      ['Fresh server, empty data folder (baseline)', mib(idle), '1.00×', '—'],
      [
        `After ${total.toLocaleString('en-US')} writes of 200 KB through /agent (${sessions} sessions, still open)`,
        mib(afterWrites),
        `${(afterWrites / idle).toFixed(2)}×`,
        `≤ ${targets.afterWritesMiB} MiB`,
      ],
      [
        'Restarted on that data folder',
        mib(afterRestart),
        `${(afterRestart / idle).toFixed(2)}×`,
        `≤ ${targets.afterRestartMiB} MiB`,
      ],
    ],
  };
  const met = (bytesUsed: number, limit: number): string => (bytesUsed <= limit * mebibyte ? 'met' : 'NOT met');
  return {
    title: 'Sessions: server memory stays bounded',
    method: [
      `The built \`vigil serve\` (out/main/cli.js) runs as its own process on a fresh data folder; ${sessions} agents connect through`,
      `/agent (Vigil's JSON-RPC, one WebSocket) and each writes ${writes.toLocaleString('en-US')} files of 200 KB (20 paths, a new turn every 50`,
      'writes, so every turn checkpoints its folder), unique and compressible content. RSS is read from /proc after the last',
      'answer, with the sessions still open; then the server is stopped (SIGTERM) and started again on the same data folder three',
      "times, RSS read once it has printed its URL (start-up reads the recent sessions' summaries). Before issue 18 a session kept",
      "every call's arguments (contents up to 64 KB each) in memory and reloaded every log whole at start-up.",
      `Wall time of one run (writes and restarts), median: ${formatMs(summarize(results.map((result) => result.seconds * 1000)).median)}.`,
    ].join('\n'),
    tables: [table],
    verdicts: [
      `RSS after ${total.toLocaleString('en-US')} writes of 200 KB: ${mib(afterWrites)} (target ≤ ${targets.afterWritesMiB} MiB): ${met(afterWrites, targets.afterWritesMiB)}.`,
      `RSS after a restart on that data folder: ${mib(afterRestart)} (target ≤ ${targets.afterRestartMiB} MiB): ${met(afterRestart, targets.afterRestartMiB)}.`,
    ],
  };
};
