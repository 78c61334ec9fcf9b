import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { createTurnMessageLookup } from '../../sessions/turn-messages';
import { makeTempDir } from '../../test-support/temp-dir';
import type { Attribution } from '../checkpoint-types';
import { CheckpointService } from '../checkpoint-service';
import { createHistoryService, type HistoryService } from './history-service';
import { dirHash } from '../../git-store/store-layout';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/** A file's history and the search of the past, with the real engine, checked against git's own `log -- FILE` and `log -S`. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let sessions: string;
let engine: CheckpointService;
let history: HistoryService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-history-'));
  dir = path.join(root, 'project');
  sessions = path.join(root, 'home', 'sessions');
  const checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
  history = createHistoryService({
    engine,
    root: checkpointsRoot,
    rules: { maxFileBytes: engine.maxFileBytes, ignoredFolders: [checkpointsRoot] },
    turnMessageOf: createTurnMessageLookup(sessions),
  });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

async function checkpoint(attribution: Attribution = {}): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file', attribution });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

/** git's own answer, on the timeline's ref: commit ids, newest first. */
function gitLog(...args: string[]): string[] {
  const out = runGit(['--git-dir', engine.gitdir, 'log', '--format=%H', ...args, `refs/vigil/${dirHash(dir)}`]);
  return out === '' ? [] : out.split('\n');
}

function gitLogOfFile(file: string): string[] {
  const out = runGit(['--git-dir', engine.gitdir, 'log', '--format=%H', `refs/vigil/${dirHash(dir)}`, '--', file]);
  return out === '' ? [] : out.split('\n');
}

/** A session log with one user message per turn, as the session service writes it. */
function writeSessionLog(sessionId: string, messages: Readonly<Record<number, string>>): void {
  mkdirSync(sessions, { recursive: true });
  const at = new Date().toISOString();
  const records: object[] = [{ type: 'opened', v: 1, at, id: sessionId, agent: 'alpha', roots: [dir] }];
  for (const [turn, text] of Object.entries(messages)) {
    records.push(
      { type: 'turn-began', at, turn: Number(turn) },
      { type: 'message', at, turn: Number(turn), role: 'user', text },
      { type: 'message', at, turn: Number(turn), role: 'assistant', text: 'done' },
    );
  }
  writeFileSync(
    path.join(sessions, `${sessionId}.jsonl`),
    `${records.map((record) => JSON.stringify(record)).join('\n')}\n`,
  );
}

describe('file history', () => {
  it('lists every checkpoint after which the file changed, across sessions, with who and the turn message; git agrees', async () => {
    writeSessionLog('session-a', { 1: 'Write the first draft', 2: 'Tidy the folder' });
    writeFiles(dir, { 'a.txt': 'v1\n', 'b/c.txt': 'c1\n' });
    const c1 = await checkpoint({ sessionId: 'session-a', turn: 1, agent: 'alpha' });
    writeFiles(dir, { 'a.txt': 'v2\n' });
    const c2 = await checkpoint({ sessionId: 'session-a', turn: 2, agent: 'alpha' });
    writeFiles(dir, { 'b/c.txt': 'c2\n' });
    const c3 = await checkpoint({ sessionId: 'session-b', turn: 1, agent: 'beta' });
    writeFiles(dir, { 'a.txt': 'v3 needle\n' });
    const c4 = await checkpoint({ origin: 'manual' });
    writeFiles(dir, { 'a.txt': 'v4\n' });

    const log = await history.fileLog(dir, 'a.txt');
    expect(log.checkpoints).toBe(4);
    expect(log.entries.map((entry) => [entry.checkpoint.id, entry.nextCheckpoint, entry.status])).toEqual([
      [c4, 'live', 'modified'],
      [c3, c4, 'modified'],
      [c1, c2, 'modified'],
    ]);
    expect(log.entries[2]).toMatchObject({
      turnMessage: 'Write the first draft',
      checkpoint: { attribution: { agent: 'alpha', turn: 1 } },
    });
    expect(log.entries[1]?.turnMessage).toBeUndefined();
    // Each version is the blob git holds for the file in that checkpoint.
    expect(log.entries[1]?.version?.oid).toBe(runGit(['--git-dir', engine.gitdir, 'rev-parse', `${c3}:a.txt`]));
    // git log -- a.txt lists the commits where a.txt differs from the parent (and the root that added it).
    const changedAt = log.entries.map((entry) => entry.nextCheckpoint).filter((id) => id !== 'live');
    expect(gitLogOfFile('a.txt')).toEqual([...changedAt, c1]);

    const withoutLive = await history.fileLog(dir, 'a.txt', { includeLive: false });
    expect(withoutLive.entries.map((entry) => entry.checkpoint.id)).toEqual([c3, c1]);
    expect((await history.fileLog(dir, 'b/c.txt')).entries.map((entry) => entry.checkpoint.id)).toEqual([c2]);
  });

  it('shows a file that was created and deleted as added and deleted', async () => {
    writeFiles(dir, { 'keep.txt': 'k\n' });
    const c1 = await checkpoint();
    writeFiles(dir, { 'late.txt': 'born\n' });
    const c2 = await checkpoint();
    writeFiles(dir, { 'keep.txt': 'k2\n' });
    const c3 = await checkpoint();
    rmSync(path.join(dir, 'late.txt'));
    const log = await history.fileLog(dir, 'late.txt');
    expect(log.entries.map((entry) => [entry.checkpoint.id, entry.status])).toEqual([
      [c3, 'deleted'],
      [c1, 'added'],
    ]);
    expect(c2).toBe(log.entries[1]?.nextCheckpoint);
  });
});

describe('search the past', () => {
  it('finds the turn that removed a line and the one that added it, and nothing else', async () => {
    writeSessionLog('session-a', { 3: 'Remove the debug line' });
    writeFiles(dir, { 'src/app.ts': 'const a = 1;\n', 'README.md': 'hello\n' });
    const c1 = await checkpoint({ sessionId: 'session-a', turn: 1 });
    writeFiles(dir, { 'src/app.ts': 'const a = 1;\nconsole.log("debug");\n' });
    const c2 = await checkpoint({ sessionId: 'session-a', turn: 2 });
    writeFiles(dir, { 'README.md': 'hello again\n' });
    const c3 = await checkpoint({ sessionId: 'session-a', turn: 3 });
    writeFiles(dir, { 'src/app.ts': 'const a = 2;\n' });

    const found = await history.search(dir, 'console.log');
    expect(found.hits.map((hit) => [hit.checkpoint.id, hit.path, hit.before, hit.after, hit.nextCheckpoint])).toEqual([
      [c3, 'src/app.ts', 1, 0, 'live'],
      [c1, 'src/app.ts', 0, 1, c2],
    ]);
    expect(found.hits[0]?.turnMessage).toBe('Remove the debug line');
    expect(found.isTruncated).toBe(false);
    // Between checkpoints, git log -S gives the same answer.
    const withoutLive = await history.search(dir, 'console.log', { includeLive: false });
    expect(withoutLive.hits.map((hit) => hit.nextCheckpoint)).toEqual(gitLog('-S', 'console.log'));
  });

  it('agrees with git log -S on a longer timeline of nested edits', async () => {
    let state = 7;
    const random = (limit: number): number => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % limit;
    };
    const files = ['a.txt', 'd1/b.txt', 'd1/d2/c.txt', 'd3/e.txt'];
    writeFiles(dir, Object.fromEntries(files.map((file) => [file, 'start\n'])));
    for (let round = 0; round < 25; round += 1) {
      await checkpoint();
      const file = files[random(files.length)] ?? 'a.txt';
      const needles = random(3);
      writeFiles(dir, { [file]: `round ${round}\n${'TODO fix\n'.repeat(needles)}` });
    }
    await checkpoint();
    const found = await history.search(dir, 'TODO', { includeLive: false });
    // git names a commit once however many of its files the text moved in.
    expect([...new Set(found.hits.map((hit) => hit.nextCheckpoint))]).toEqual(gitLog('-S', 'TODO'));
    expect(found.hits.length).toBeGreaterThan(3);
  });

  it('skips binary files, as git log -S does, and stops at the limit', async () => {
    writeFiles(dir, { 'a.txt': 'x\n', 'blob.dat': 'x\n' });
    await checkpoint();
    writeFileSync(path.join(dir, 'blob.dat'), Buffer.from('needle\0needle'));
    writeFiles(dir, { 'a.txt': 'needle\n' });
    await checkpoint();
    writeFiles(dir, { 'a.txt': 'needle needle\n' });
    await checkpoint();
    const found = await history.search(dir, 'needle', { includeLive: false });
    expect(found.hits.map((hit) => hit.path)).toEqual(['a.txt', 'a.txt']);
    expect(found.hits.map((hit) => hit.nextCheckpoint)).toEqual(gitLog('-S', 'needle'));
    expect(gitLogOfFile('blob.dat')).toHaveLength(2);
    const limited = await history.search(dir, 'needle', { includeLive: false, limit: 1 });
    expect(limited).toMatchObject({ isTruncated: true });
    expect(limited.hits).toHaveLength(1);
  });
});
