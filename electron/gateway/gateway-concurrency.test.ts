import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VigilAgentClient } from '../../agent-client/vigil-agent-client';
import type { AgentToolOutcome } from '../../shared/agent-protocol/agent-methods';
import { startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

const run = promisify(execFile);
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const sessionCount = 8;
const turnsPerSession = 10;
const callsPerTurn = 10;

let fixture: ServeFixture;

beforeAll(async () => {
  fixture = await startServeFixture();
});

afterAll(async () => {
  await fixture.close();
});

interface AgentRun {
  readonly sessionId: string;
  readonly outcomes: ReadonlyArray<{ readonly turn: number; readonly outcome: AgentToolOutcome }>;
}

/** One agent: its own connection and session, `turnsPerSession` turns of `callsPerTurn` concurrent writes. */
async function runAgent(index: number, root: string): Promise<AgentRun> {
  const client = await VigilAgentClient.connect({ url: fixture.baseUrl, token: fixture.agentToken, reconnect: false });
  try {
    const session = await client.openSession({ agent: `agent-${index}`, roots: [root] });
    const outcomes: Array<{ turn: number; outcome: AgentToolOutcome }> = [];
    for (let turnIndex = 0; turnIndex < turnsPerSession; turnIndex += 1) {
      const turn = await session.beginTurn(`turn ${turnIndex}`);
      const calls = Array.from({ length: callsPerTurn }, (_, call) => ({
        name: 'write_file',
        arguments: {
          path: `agent-${index}/file-${call}.txt`,
          content: `agent ${index} turn ${turnIndex} call ${call}\n`,
        },
      }));
      for (const outcome of await session.callTools(calls, { concurrent: true })) outcomes.push({ turn, outcome });
    }
    await session.close();
    return { sessionId: session.id, outcomes };
  } finally {
    await client.close();
  }
}

async function checkRuns(runs: readonly AgentRun[], root: string): Promise<void> {
  const store = path.join(fixture.home, 'checkpoints', 'store');
  const seen = new Set<string>();
  for (const [index, agent] of runs.entries()) {
    expect(agent.outcomes).toHaveLength(turnsPerSession * callsPerTurn);
    for (const { turn, outcome } of agent.outcomes) {
      expect(outcome.result.ok, JSON.stringify(outcome.result)).toBe(true);
      expect(outcome.turn).toBe(turn);
      for (const checkpoint of outcome.checkpoints.filter((entry) => entry.kind === 'created')) {
        const key = `${agent.sessionId}/${turn}/${checkpoint.directory}`;
        expect(seen.has(key), `two checkpoints of one directory in one turn: ${key}`).toBe(false);
        seen.add(key);
        const { stdout } = await run('git', ['--git-dir', store, 'cat-file', 'commit', checkpoint.checkpointId ?? ''], {
          env: gitEnv,
        });
        expect(stdout).toContain(`Vigil-Session: ${agent.sessionId}`);
        expect(stdout).toContain(`Vigil-Turn: ${turn}`);
      }
    }
    for (let call = 0; call < callsPerTurn; call += 1) {
      const content = await readFile(path.join(root, `agent-${index}`, `file-${call}.txt`), 'utf8');
      expect(content).toBe(`agent ${index} turn ${turnsPerSession - 1} call ${call}\n`);
    }
  }
  expect(seen.size).toBeGreaterThan(0);
  await run('git', ['--git-dir', store, 'fsck', '--full'], { env: gitEnv });
}

/**
 * The executor's own test (electron/executor) covers shared and separate folders in-process; this one
 * drives the same load through the gateway, each session on its own WebSocket connection.
 */
describe(`${sessionCount} sessions × ${turnsPerSession * callsPerTurn} calls through /agent`, () => {
  it('in one directory: every write lands, every checkpoint names its session and turn, no deadlock', async () => {
    const runs = await Promise.all(
      Array.from({ length: sessionCount }, (_, index) => runAgent(index, fixture.workspace)),
    );
    await checkRuns(runs, fixture.workspace);
  });
});
