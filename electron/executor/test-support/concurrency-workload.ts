import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { SessionRegistry } from '../../sessions/session-registry';
import type { ToolCallOutcome, ToolCallRequest } from '../executor-types';
import { createAgentHarness, type AgentHarness } from './agent-harness';

/**
 * The concurrency workload: 8 sessions × 100 calls at once (10 turns of 10 calls; half the
 * sessions send concurrent batches,
 * half sequential ones), all in one folder or each in its own: no lost write, no deadlock, and every
 * checkpoint in the store attributed to the session and turn that took it (git's own trailers).
 */
const sessionCount = 8;
const turnCount = 10;

interface SessionRun {
  readonly sessionId: string;
  readonly index: number;
  readonly directory: string;
  readonly outcomes: ToolCallOutcome[];
}

function batch(index: number, turn: number): ToolCallRequest[] {
  const own = `s${index}`;
  return [
    ...Array.from({ length: 8 }, (_, k) => ({
      callId: `w${k}`,
      name: 'write_file',
      arguments: { path: `${own}/t${turn}-${k}.txt`, content: `s${index} t${turn} k${k}\n` },
    })),
    { callId: 'common', name: 'write_file', arguments: { path: 'common.txt', content: `s${index} t${turn}\n` } },
    { callId: 'read', name: 'read_file', arguments: { path: `${own}/t${turn}-0.txt` } },
  ];
}

/** Runs one session's 10 turns of 10 calls. */
async function runSession(h: AgentHarness, index: number, directory: string): Promise<SessionRun> {
  mkdirSync(path.join(directory, `s${index}`), { recursive: true });
  const { id: sessionId } = await h.sessions.open({ agent: `agent-${index}`, roots: [directory] });
  const outcomes: ToolCallOutcome[] = [];
  for (let turn = 1; turn <= turnCount; turn += 1) {
    await h.sessions.beginTurn(sessionId, { userMessage: `turn ${turn}` });
    outcomes.push(...(await h.executor.execute(sessionId, batch(index, turn), { concurrent: index % 2 === 0 })));
    await h.sessions.endTurn(sessionId);
  }
  return { sessionId, index, directory, outcomes };
}

/** Checks every write, read, checkpoint attribution, the store's integrity and the reloaded logs. */
async function verify(h: AgentHarness, runs: readonly SessionRun[]): Promise<void> {
  const sessionOf = new Map(runs.map((run) => [run.sessionId, run]));
  for (const run of runs) {
    expect(run.outcomes).toHaveLength(turnCount * 10);
    expect(run.outcomes.filter((outcome) => !outcome.result.ok)).toEqual([]);
    for (let turn = 1; turn <= turnCount; turn += 1) {
      for (let k = 0; k < 8; k += 1)
        expect(readFileSync(path.join(run.directory, `s${run.index}`, `t${turn}-${k}.txt`), 'utf8')).toBe(
          `s${run.index} t${turn} k${k}\n`,
        );
      const read = run.outcomes.find((outcome) => outcome.turn === turn && outcome.callId === 'read');
      expect(read?.result).toMatchObject({
        ok: true,
        value: { content: expect.stringContaining(`s${run.index} t${turn} k0`) as unknown },
      });
      const taken = run.outcomes.filter((outcome) => outcome.turn === turn).flatMap((outcome) => outcome.checkpoints);
      expect(taken.map((checkpoint) => checkpoint.directory)).toEqual([run.directory]);
    }
  }
  for (const directory of new Set(runs.map((run) => run.directory))) {
    expect(readFileSync(path.join(directory, 'common.txt'), 'utf8')).toMatch(/^s\d t\d+\n$/u);
    const log = h.gitLog(directory);
    const seen = new Set<string>();
    for (const entry of log) {
      const run = sessionOf.get(entry.session);
      expect(run?.directory).toBe(directory);
      expect(entry).toMatchObject({ subject: 'before write_file', tool: 'write_file' });
      expect(entry.turn).toBeGreaterThanOrEqual(1);
      expect(entry.turn).toBeLessThanOrEqual(turnCount);
      const key = `${entry.session}:${entry.turn}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
    for (const run of runs.filter((candidate) => candidate.directory === directory)) {
      for (const checkpoint of run.outcomes.flatMap((outcome) =>
        outcome.checkpoints.map((taken) => ({ ...taken, turn: outcome.turn })),
      )) {
        if (checkpoint.kind !== 'created') continue;
        expect(log.find((entry) => entry.id === checkpoint.checkpointId)).toMatchObject({
          session: run.sessionId,
          turn: checkpoint.turn,
        });
      }
    }
  }
  expect(() => h.git(['fsck', '--full', '--no-dangling'])).not.toThrow();
  const reloaded = new SessionRegistry({
    directory: path.join(h.base, 'vigil', 'sessions'),
    logger: silentLogger,
    events: { emit: () => undefined },
  });
  await reloaded.load();
  for (const run of runs) {
    const history = await reloaded.history(run.sessionId);
    const calls = history.turns.flatMap((turn) => turn.entries).filter((entry) => entry.kind === 'tool-call');
    expect(history.turns).toHaveLength(turnCount);
    expect(calls).toHaveLength(turnCount * 10);
    expect(calls.filter((call) => call.isInterrupted || !call.result.ok)).toEqual([]);
  }
  await reloaded.dispose();
}

/** Runs the whole workload, every session in `folderOf(index)`, and verifies it. */
export async function runConcurrencyWorkload(
  folderOf: (harness: AgentHarness, index: number) => string,
): Promise<void> {
  const harness = await createAgentHarness();
  try {
    const runs = await Promise.all(
      Array.from({ length: sessionCount }, (_, index) => runSession(harness, index, folderOf(harness, index))),
    );
    await verify(harness, runs);
  } finally {
    await harness.close();
  }
}
