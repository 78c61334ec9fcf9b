import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../shared/contract/sessions-contract';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let base: string;
let remove: () => Promise<void>;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-turn-cli-'));
  project = path.join(base, 'project');
  await mkdir(project);
  await writeFile(path.join(project, 'a.txt'), 'a\n');
  env = { VIGIL_HOME: path.join(base, 'vigil-home'), HOME: base };
});
afterEach(async () => {
  await remove();
});

/** Runs one `vigil tool` call (its own session, turn 1) and returns that session's id. */
async function toolCall(name: string, args: Record<string, unknown>): Promise<string> {
  const before = await sessionIds();
  const ran = await runVigil(['tool', name, '--args', JSON.stringify(args), '--cwd', project], { env });
  expect(ran.code, ran.stderr).toBe(0);
  const after = await sessionIds();
  const added = after.filter((id) => !before.includes(id));
  expect(added).toHaveLength(1);
  return added[0] ?? '';
}

async function sessionIds(): Promise<string[]> {
  const listed = await runVigil(['sessions', 'list', '--json'], { env });
  return (JSON.parse(listed.stdout) as { sessions: SessionSummary[] }).sessions.map((session) => session.id);
}

interface ListedEntry {
  readonly number: number;
  readonly id: string;
  readonly attribution: { readonly sessionId?: string; readonly turn?: number };
}

describe("vigil sessions show --turn: a turn's own changeset", () => {
  it('gives a turn whose folder had not changed its own checkpoint, and counts its changes alike in the list and the turn', async () => {
    // A checkpoint by hand holds the folder as it is: the agent's turn finds nothing changed since.
    expect((await runVigil(['checkpoint', project], { env })).code).toBe(0);
    const writer = await toolCall('write_file', { path: 'b.txt', content: 'one\ntwo\n' });
    const patcher = await toolCall('write_file', { path: 'a.txt', content: 'a\nb\nc\n' });

    const listed = await runVigil(['checkpoints', 'list', project, '--json'], { env });
    const { entries } = JSON.parse(listed.stdout) as { entries: ListedEntry[] };
    // The writer's turn has its own checkpoint (before, its change showed under the checkpoint by hand).
    const own = entries.find((entry) => entry.attribution.sessionId === writer);
    expect(own, listed.stdout).toBeDefined();
    expect(own?.attribution.turn).toBe(1);
    expect(entries.map((entry) => entry.attribution.sessionId)).toEqual([patcher, writer, undefined]);

    const [turn, text, history] = await Promise.all([
      runVigil(['sessions', 'show', writer, '--turn', '1'], { env }),
      runVigil(['checkpoints', 'list', project], { env }),
      runVigil(['sessions', 'show', writer], { env }),
    ]);
    expect(turn.code, turn.stderr).toBe(0);
    expect(turn.stdout).toContain(`Turn 1 of session ${writer}: 1 file, +2 −0`);
    expect(turn.stdout).toContain(`A ${path.join(project, 'b.txt')}  +2 −0`);
    // The list names the row as the timeline does and counts the same changeset.
    const line = text.stdout.split('\n').find((candidate) => candidate.includes(`session ${writer}`));
    expect(line).toContain('write_file b.txt');
    expect(line).toContain('(this turn: 1 file, +2 −0)');
    expect(history.stdout).toContain('changed: 1 file, +2 −0');

    const diff = await runVigil(['sessions', 'show', writer, '--turn', '1', '--diff'], { env });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(`checkpoint ${own?.id.slice(0, 8) ?? ''} (before the turn)`);
    expect(diff.stdout).toContain('diff --git a/b.txt b/b.txt');
    expect(diff.stdout).toMatch(/\+one\n\+two/u);
    // Only the turn's own file: the other session's later change to a.txt is not in it.
    expect(diff.stdout).not.toContain('a/a.txt');
  }, 180_000);

  it('says which turns there are when asked for one that is not', async () => {
    const writer = await toolCall('write_file', { path: 'b.txt', content: 'one\n' });
    const missing = await runVigil(['sessions', 'show', writer, '--turn', '4'], { env });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(`Session ${writer} has no turn 4: its turns are 1–1.`);
    const noTurn = await runVigil(['sessions', 'show', writer, '--diff'], { env });
    expect(noTurn.stderr).toContain('add --turn N');
  }, 120_000);
});
