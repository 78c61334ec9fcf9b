import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAgentHarness, type AgentHarness } from '../electron/executor/test-support/agent-harness';
import { writeFileAtomic } from '../electron/files';
import { analyzeCommand } from '../electron/policy';
import { formatMs, summarize, type BenchArea, type BenchContext, type BenchTable, type Timing } from './harness';

/**
 * The tool executor in process (no transport): what validation, policy, the per-turn checkpoint,
 * path locks and the durable session log add to a 1 KiB write_file, against the atomic writer
 * alone and a plain fs.writeFile measured in the same run; throughput with 1 and 8 sessions; and
 * the cost of parsing a terminal command for the policy.
 */
const content = 'x'.repeat(1024);

function rate(count: number, ms: number): string {
  return `${((count * 1000) / ms).toFixed(0)} /s`;
}

async function timeCalls(count: number, call: (index: number) => Promise<unknown>): Promise<Timing> {
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = performance.now();
    await call(index);
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

async function session(harness: AgentHarness, name: string): Promise<string> {
  const { id } = await harness.sessions.open({ agent: name, roots: [harness.workspace] });
  await harness.sessions.beginTurn(id);
  return id;
}

async function latency(harness: AgentHarness, calls: number): Promise<BenchTable> {
  const id = await session(harness, 'latency');
  const write = (index: number): Promise<unknown> =>
    harness.executor.execute(id, [{ name: 'write_file', arguments: { path: `lat/${index % 50}.txt`, content } }], {
      concurrent: false,
    });
  await write(0);
  const executor = await timeCalls(calls, write);
  const atomic = await timeCalls(calls, (index) =>
    writeFileAtomic(path.join(harness.workspace, 'lat', `${index % 50}.txt`), content),
  );
  const plain = await timeCalls(calls, (index) =>
    writeFile(path.join(harness.workspace, 'lat', `${index % 50}.txt`), content),
  );
  let turn = 0;
  const checkpointing = await timeCalls(Math.max(10, Math.floor(calls / 5)), async (index) => {
    turn += 1;
    await harness.sessions.beginTurn(id, { userMessage: `turn ${turn}` });
    return harness.executor.execute(
      id,
      [{ name: 'write_file', arguments: { path: `lat/${index % 50}.txt`, content: `${content}${index}` } }],
      { concurrent: false },
    );
  });
  const row = (name: string, timing: Timing, note: string): string[] => [
    name,
    formatMs(timing.median),
    formatMs(timing.p99),
    `${(timing.median / plain.median).toFixed(1)}×`,
    note,
  ];
  return {
    caption: `One 1 KiB write_file at a time (${calls} calls, one session)`,
    columns: ['path', 'p50', 'p99', 'vs fs.writeFile', 'what it does'],
    rows: [
      row('fs.writeFile (baseline)', plain, 'no temp file, no fsync'),
      row('writeFileAtomic', atomic, 'temp + fsync + rename + dir fsync'),
      row(
        'executor, checkpoint deduplicated',
        executor,
        'validate, policy, locks, atomic write, 2 log records, 1 fdatasync',
      ),
      row('executor, new turn each call', checkpointing, 'the same plus a checkpoint of the folder every call'),
    ],
  };
}

async function throughput(harness: AgentHarness, sessions: number, callsPerSession: number): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: sessions }, (_, index) => session(harness, `throughput-${sessions}-${index}`)),
  );
  const samples: number[] = [];
  const start = performance.now();
  await Promise.all(
    ids.map(async (id, s) => {
      for (let index = 0; index < callsPerSession; index += 1) {
        const began = performance.now();
        await harness.executor.execute(
          id,
          [{ name: 'write_file', arguments: { path: `tp${sessions}/s${s}-${index % 20}.txt`, content } }],
          { concurrent: false },
        );
        samples.push(performance.now() - began);
      }
    }),
  );
  const elapsed = performance.now() - start;
  const timing = summarize(samples);
  return [
    `${sessions}`,
    `${sessions * callsPerSession}`,
    rate(sessions * callsPerSession, elapsed),
    formatMs(timing.median),
    formatMs(timing.p99),
  ];
}

async function batches(harness: AgentHarness, rounds: number): Promise<BenchTable> {
  const id = await session(harness, 'batches');
  const calls = (round: number): { name: string; arguments: unknown }[] =>
    Array.from({ length: 10 }, (_, k) => ({
      name: 'write_file',
      arguments: { path: `batch/${round % 5}-${k}.txt`, content },
    }));
  const concurrent = await timeCalls(rounds, (round) =>
    harness.executor.execute(id, calls(round), { concurrent: true }),
  );
  const sequential = await timeCalls(rounds, (round) =>
    harness.executor.execute(id, calls(round), { concurrent: false }),
  );
  return {
    caption: `A batch of 10 write_file calls (${rounds} batches each way)`,
    columns: ['mode', 'p50 per batch', 'p99', 'ratio'],
    rows: [
      ['sequential', formatMs(sequential.median), formatMs(sequential.p99), '1.00×'],
      [
        'concurrent',
        formatMs(concurrent.median),
        formatMs(concurrent.p99),
        `${(concurrent.median / sequential.median).toFixed(2)}×`,
      ],
    ],
  };
}

function parsing(repeats: number): BenchTable {
  const place = { cwd: '/work/project', home: '/home/ada', platform: 'linux' as const };
  const commands = [
    'npm test',
    'rm -rf dist && mkdir dist',
    'find . -name "*.o" -delete',
    'git status && git diff --stat | tail -1',
    'cat <<EOF > f\n$(date)\nEOF',
    'sudo -u root env A=1 nice -n 5 xargs -I{} sh -c "git push --force; echo $(whoami)"',
    // Code from workspace files (issue 30): a changed PATH, a script on the input, a program by path, git's shell code.
    'PATH=.:$PATH ls',
    'sh < script.sh',
    './grep foo',
    "git -c alias.x='!rm -rf ~' x",
  ];
  return {
    caption: `Parsing a terminal command for the policy (${repeats} runs each)`,
    columns: ['command', 'p50', 'p99'],
    rows: commands.map((command) => {
      const samples: number[] = [];
      for (let run = 0; run < repeats; run += 1) {
        const start = performance.now();
        analyzeCommand(command, place);
        samples.push(performance.now() - start);
      }
      const timing = summarize(samples);
      return [
        `\`${command.replace(/\n/gu, '⏎').replace(/\|/gu, '\\|')}\``,
        formatMs(timing.median),
        formatMs(timing.p99),
      ];
    }),
  };
}

/** The executor bench area. */
export const run: BenchArea = async (context: BenchContext) => {
  const calls = context.isQuick ? 20 : 300;
  const harness = await createAgentHarness();
  try {
    context.log('latency …');
    const latencyTable = await latency(harness, calls);
    context.log('throughput …');
    const one = await throughput(harness, 1, context.isQuick ? 20 : 400);
    const eight = await throughput(harness, 8, context.isQuick ? 5 : 100);
    context.log('batches …');
    const batchTable = await batches(harness, context.isQuick ? 3 : 30);
    return {
      title: 'Tool executor',
      method: [
        'In process, no transport (the gateway bench adds MCP and JSON-RPC on top). Each call is one `write_file` of 1 KiB',
        'through the whole pipeline: schema validation, workspace confinement, the policy (config.json re-checked by',
        'stat), the per-turn checkpoint slot, the path lock, the atomic write, and two session-log records (the decision',
        "written before the tool runs, the result written and fdatasync'ed before the call returns). Baselines measured in the same run on the same files. The machine is",
        "shared with other engineers' builds and tests, so absolute numbers are noisy; compare the ratios.",
      ].join(' '),
      tables: [
        latencyTable,
        {
          caption: 'Throughput: sessions writing at once, each one call at a time',
          columns: ['sessions', 'calls', 'calls/s', 'p50', 'p99'],
          rows: [one, eight],
        },
        batchTable,
        parsing(context.isQuick ? 50 : 2000),
      ],
    };
  } finally {
    await harness.close();
  }
};
