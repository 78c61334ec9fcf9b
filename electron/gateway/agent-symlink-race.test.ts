import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentSession } from '../../agent-client/agent-session';
import { VigilAgentClient } from '../../agent-client/vigil-agent-client';
import type { AgentToolOutcome } from '../../shared/agent-protocol/agent-methods';
import { isVigilTempFile } from '../files/vigil-temp-name';
import { repoRoot } from '../test-support/run-vigil';
import { startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

const swapper = path.join(repoRoot, 'electron/files/test-support/link-swapper.ts');
const raceMs = 10_000;
const sessionCount = 4;

let fixture: ServeFixture;
let outside: string;

beforeAll(async () => {
  fixture = await startServeFixture();
  outside = path.join(fixture.scratch, 'outside');
  mkdirSync(outside);
  mkdirSync(path.join(fixture.workspace, 'sub'));
  for (let index = 0; index < sessionCount; index += 1) {
    // The same names on both sides: a write, patch or read that follows the link would show.
    writeFileSync(path.join(outside, `p${index}.txt`), 'value: a\n');
    writeFileSync(path.join(outside, `r${index}.txt`), `OUTSIDE SECRET ${index}\n`);
    writeFileSync(path.join(fixture.workspace, 'sub', `p${index}.txt`), 'value: a\n');
    writeFileSync(path.join(fixture.workspace, 'sub', `r${index}.txt`), `inside ${index}\n`);
  }
});

afterAll(async () => {
  await fixture.close();
});

/** Every file under a folder, relative, with its content. */
function filesUnder(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.set(path.relative(folder, absolute), readFileSync(absolute, 'utf8'));
  }
  return files;
}

/** Starts the swapper and resolves once it has swapped for the first time. */
async function startSwapper(): Promise<{ stop: () => Promise<string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', swapper, fixture.workspace, outside], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('swapping')) resolve();
    });
    void exited.then(() => reject(new Error(`the swapper exited early: ${stderr}`)));
  });
  return {
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the swapper failed (${String(code)}): ${stderr}`);
      return stdout;
    },
  };
}

interface Attempt {
  readonly kind: 'write' | 'patch' | 'read';
  readonly name: string;
  readonly content?: string;
  readonly outcome: AgentToolOutcome;
}

/** One round of one session: writes a new file, patches one and reads one under sub/, concurrently. */
async function runRound(session: AgentSession, index: number, round: number): Promise<Attempt[]> {
  const name = `s${index}-t${round}.txt`;
  const content = `session ${index} round ${round}\n`;
  const outcomes = await session.callTools(
    [
      { name: 'write_file', arguments: { path: `sub/${name}`, content } },
      // Always one match ("value: " once), so every patch that runs succeeds.
      {
        name: 'patch',
        arguments: { path: `sub/p${index}.txt`, old_string: 'value: ', new_string: `value: ${round % 10}` },
      },
      { name: 'read_file', arguments: { path: `sub/r${index}.txt` } },
    ],
    { concurrent: true },
  );
  const [write, patch, read] = outcomes;
  if (write === undefined || patch === undefined || read === undefined) throw new Error('a call had no outcome');
  return [
    { kind: 'write', name, content, outcome: write },
    { kind: 'patch', name: `p${index}.txt`, outcome: patch },
    { kind: 'read', name: `r${index}.txt`, outcome: read },
  ];
}

/** One agent session: rounds until the race is over, then one round once the folder is still. */
async function runAgent(index: number, raceOver: Promise<void>): Promise<{ racing: Attempt[]; calm: Attempt[] }> {
  const client = await VigilAgentClient.connect({ url: fixture.baseUrl, token: fixture.agentToken, reconnect: false });
  const race = { isOver: false };
  void raceOver.then(() => (race.isOver = true));
  const racing: Attempt[] = [];
  try {
    const session = await client.openSession({ agent: `racer-${index}`, roots: [fixture.workspace] });
    let round = 0;
    for (; !race.isOver; round += 1) {
      if (round % 25 === 0) await session.beginTurn(`round ${round}`);
      racing.push(...(await runRound(session, index, round)));
    }
    const calm = await runRound(session, index, round);
    await session.close();
    return { racing, calm };
  } finally {
    await client.close();
  }
}

/** How many attempts of a kind succeeded, and the error codes of the rest. */
function tally(attempts: readonly Attempt[], kind: Attempt['kind']): { ok: number; codes: Record<string, number> } {
  const codes: Record<string, number> = {};
  let ok = 0;
  for (const attempt of attempts.filter((candidate) => candidate.kind === kind)) {
    if (attempt.outcome.result.ok) ok += 1;
    else codes[attempt.outcome.result.error.code] = (codes[attempt.outcome.result.error.code] ?? 0) + 1;
  }
  return { ok, codes };
}

describe('file tools while another process swaps a folder and a symlink to outside every 2 ms', () => {
  it(`for ${raceMs / 1000} s: nothing is written or read outside, no result is unexpected, every success is where it says`, async () => {
    const before = filesUnder(outside);
    const swapping = await startSwapper();
    let report = '';
    const raceOver = sleep(raceMs).then(async () => {
      report = await swapping.stop();
    });
    const runs = await Promise.all(Array.from({ length: sessionCount }, (_, index) => runAgent(index, raceOver)));
    const attempts = runs.flatMap((run) => [...run.racing, ...run.calm]);
    const counts = { write: tally(attempts, 'write'), patch: tally(attempts, 'patch'), read: tally(attempts, 'read') };
    console.log(`symlink race: ${report.trim()}; ${JSON.stringify(counts)}`);

    expect(filesUnder(outside)).toEqual(before);
    const unexpected = attempts.filter(
      (attempt) => !attempt.outcome.result.ok && attempt.outcome.result.error.code === 'unexpected',
    );
    expect(unexpected.map((attempt) => attempt.outcome.result)).toEqual([]);
    for (const attempt of attempts.filter((candidate) => candidate.kind === 'read' && candidate.outcome.result.ok)) {
      expect(JSON.stringify(attempt.outcome.result)).not.toContain('OUTSIDE');
    }
    const inside = filesUnder(fixture.workspace);
    for (const attempt of attempts.filter((candidate) => candidate.kind === 'write' && candidate.outcome.result.ok)) {
      const landed = [...inside].filter(
        ([relative, content]) => path.basename(relative) === attempt.name && content === attempt.content,
      );
      expect(
        landed.map(([relative]) => relative.split(path.sep)[0]),
        attempt.name,
      ).toHaveLength(1);
    }
    expect([...inside.keys()].filter((relative) => isVigilTempFile(relative))).toEqual([]);
    // The race was real (the swapper swapped, writes succeeded while it did), and once the folder is still, every call succeeds.
    expect(Number(/swaps (\d+)/u.exec(report)?.[1])).toBeGreaterThan(200);
    expect(report).toContain('folder back');
    expect(
      runs.flatMap((run) => run.racing).filter((attempt) => attempt.kind === 'write' && attempt.outcome.result.ok)
        .length,
    ).toBeGreaterThan(0);
    expect(runs.flatMap((run) => run.calm).map((attempt) => [attempt.kind, attempt.outcome.result.ok])).toEqual(
      runs.flatMap(() => [
        ['write', true],
        ['patch', true],
        ['read', true],
      ]),
    );
    for (let index = 0; index < sessionCount; index += 1) {
      expect(readFileSync(path.join(fixture.workspace, 'sub', `r${index}.txt`), 'utf8')).toBe(`inside ${index}\n`);
      expect(readFileSync(path.join(fixture.workspace, 'sub', `p${index}.txt`), 'utf8')).toMatch(/^value: \d+a\n$/u);
    }
  });
});
