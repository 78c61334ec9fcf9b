import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointService, loadCheckpointService } from '../checkpoints';
import { dirHash } from '../git-store';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import type { MemoryCheckpointer } from './memory-checkpointer';
import { parseEntries } from './memory-format';
import { ChangeRecorder } from './test-support/change-recorder';
import { backupsIn, memoryServiceFor } from './test-support/memory-fixtures';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

let temp: { dir: string; remove: () => Promise<void> };
let checkpoints: CheckpointService;
let memories: string;

beforeEach(async () => {
  temp = await makeTempDir();
  memories = path.join(temp.dir, 'memories');
  await mkdir(memories);
  checkpoints = new CheckpointEngine({ root: path.join(temp.dir, 'checkpoints'), logger: silentLogger });
});
afterEach(async () => {
  await checkpoints.dispose();
  await temp.remove();
});

function git(...args: string[]): string {
  return execFileSync('git', [`--git-dir=${checkpoints.gitdir}`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

/** MEMORY.md in each checkpoint of the memory folder, oldest first (null where a checkpoint has none). */
function versionsOnTimeline(): Array<string | null> {
  const ids = git('log', '--format=%H', `refs/vigil/${dirHash(memories)}`)
    .split('\n')
    .reverse();
  return ids.map((id) =>
    git('ls-tree', '--name-only', id).split('\n').includes('MEMORY.md')
      ? git('cat-file', '-p', `${id}:MEMORY.md`)
      : null,
  );
}

/** Replaces MEMORY.md the way editors do (temp file + rename). */
async function saveAsEditor(text: string): Promise<void> {
  const editorTemp = path.join(memories, '.MEMORY.md.editor-tmp');
  await writeFile(editorTemp, text);
  await rename(editorTemp, path.join(memories, 'MEMORY.md'));
}

describe('memory directories are checkpointed directories', () => {
  it('captures the version found at start-up, so the first external edit cannot erase it unseen', async () => {
    await writeFile(path.join(memories, 'MEMORY.md'), 'there before Vigil started');
    const memory = await memoryServiceFor(memories, { checkpoints, watch: {} });
    const recorder = new ChangeRecorder(memory);
    try {
      await memory.settled();
      await saveAsEditor('rewritten by an editor');
      await recorder.waitFor('the edit', (change) => change.source === 'external');
      await memory.settled();
    } finally {
      recorder.dispose();
      await memory.dispose();
    }
    expect(versionsOnTimeline()).toEqual(['there before Vigil started', 'rewritten by an editor']);
  });

  it('keeps every reported version restorable, even one replaced before its capture ran', async () => {
    const file = path.join(memories, 'MEMORY.md');
    let isOverwritten = false;
    // Another edit lands after the change was reported and before its checkpoint reads the disk.
    const late: MemoryCheckpointer = {
      checkpoint: async (dir, request) => {
        if (!isOverwritten && request.reason.startsWith('external edit')) {
          isOverwritten = true;
          await saveAsEditor('the edit after that');
        }
        return checkpoints.checkpoint(dir, request);
      },
      noteWritten: (paths) => checkpoints.noteWritten(paths),
      resolve: (dir, ref) => checkpoints.resolve(dir, ref),
      readTree: (tree) => checkpoints.readTree(tree),
      readBlob: (oid) => checkpoints.readBlob(oid),
    };
    const problems: string[] = [];
    const memory = await memoryServiceFor(memories, {
      checkpoints: late,
      watch: {},
      onProblem: (message) => problems.push(message),
    });
    const recorder = new ChangeRecorder(memory);
    try {
      await memory.mutate(memories, 'memory', { action: 'add', content: 'likes tea' });
      await memory.settled();
      await appendFile(file, '§\nappended by hand\n');
      await recorder.waitFor('the edit after that', (change) => change.current.entries.includes('the edit after that'));
      await memory.settled();
    } finally {
      recorder.dispose();
      await memory.dispose();
    }
    const texts = [
      ...versionsOnTimeline(),
      ...(await Promise.all((await backupsIn(memories)).map((name) => readFile(path.join(memories, name), 'utf8')))),
    ];
    const kept = new Set(texts.map((text) => (text === null ? null : parseEntries(text).join('\n§\n'))));
    const reported = recorder.changes.filter((change) => change.current.exists);
    expect(reported.map((change) => change.current.entries.join('|'))).toContain('likes tea|appended by hand');
    for (const change of reported)
      expect(kept, `version ${change.current.entries.join('|')}`).toContain(change.current.entries.join('\n§\n'));
    expect(problems.join('\n')).toContain('replaced before Vigil could checkpoint it');
  });

  it('keeps no .bak for a version replaced before its capture by one that holds all its entries (two writers adding at once)', async () => {
    const file = path.join(memories, 'MEMORY.md');
    let isOverwritten = false;
    // Another writer adds an entry after Vigil's write and before its capture reads the disk.
    const late: MemoryCheckpointer = {
      checkpoint: async (dir, request) => {
        if (!isOverwritten && request.reason.startsWith('after memory: add')) {
          isOverwritten = true;
          await saveAsEditor('likes tea\n§\nadded by Hermes at the same moment');
        }
        return checkpoints.checkpoint(dir, request);
      },
      noteWritten: (paths) => checkpoints.noteWritten(paths),
      resolve: (dir, ref) => checkpoints.resolve(dir, ref),
      readTree: (tree) => checkpoints.readTree(tree),
      readBlob: (oid) => checkpoints.readBlob(oid),
    };
    const problems: string[] = [];
    const memory = await memoryServiceFor(memories, {
      checkpoints: late,
      onProblem: (message) => problems.push(message),
    });
    try {
      await memory.mutate(memories, 'memory', { action: 'add', content: 'likes tea' });
      await memory.settled();
    } finally {
      await memory.dispose();
    }
    expect(isOverwritten).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('likes tea\n§\nadded by Hermes at the same moment');
    expect(versionsOnTimeline().at(-1)).toBe('likes tea\n§\nadded by Hermes at the same moment');
    expect(await backupsIn(memories)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('captures an external undo back to the version Vigil wrote last', async () => {
    const memory = await memoryServiceFor(memories, { checkpoints, watch: {} });
    const recorder = new ChangeRecorder(memory);
    try {
      await memory.mutate(memories, 'memory', { action: 'add', content: 'likes tea' });
      await memory.settled();
      await saveAsEditor('likes green tea');
      await recorder.waitFor('the edit', (change) => change.current.entries.includes('likes green tea'));
      await memory.settled();
      await saveAsEditor('likes tea');
      await recorder.waitFor('the undo', (change) => change.previous.entries.includes('likes green tea'));
      await memory.settled();
    } finally {
      recorder.dispose();
      await memory.dispose();
    }
    expect(versionsOnTimeline().slice(1)).toEqual(['likes tea', 'likes green tea', 'likes tea']);
  });

  it('puts every version of MEMORY.md on the timeline: before and after each change, and each external edit', async () => {
    const memory = await memoryServiceFor(memories, { checkpoints, watch: {} });
    const recorder = new ChangeRecorder(memory);
    try {
      const first = await memory.mutate(
        memories,
        'memory',
        { action: 'add', content: 'likes tea' },
        { attribution: { sessionId: 's1', turn: 1, tool: 'memory' } },
      );
      expect(first.checkpoint.status).toBe('created');
      await memory.mutate(memories, 'memory', { action: 'add', content: 'uses vim' });
      await memory.settled();
      await appendFile(path.join(memories, 'MEMORY.md'), '§\nappended by hand\n');
      await recorder.waitFor('the external edit', (change) => change.source === 'external');
      await memory.settled();
      const replaced = await memory.mutate(memories, 'memory', {
        action: 'replace',
        oldText: 'vim',
        content: 'uses helix',
      });
      expect(replaced.checkpoint.status).toBe('unchanged');
      await memory.settled();
    } finally {
      recorder.dispose();
      await memory.dispose();
    }
    const ref = `refs/vigil/${dirHash(memories)}`;
    const commits = git('log', '--format=%H %s', ref).split('\n').reverse();
    expect(commits.map((line) => line.slice(41))).toEqual([
      'before memory: add',
      'after memory: add',
      'after memory: add',
      'external edit of MEMORY.md',
      'after memory: replace',
    ]);
    const versions = commits.slice(1).map((line) => git('cat-file', '-p', `${line.slice(0, 40)}:MEMORY.md`));
    expect(versions).toEqual([
      'likes tea',
      'likes tea\n§\nuses vim',
      'likes tea\n§\nuses vim\n§\nappended by hand',
      'likes tea\n§\nuses helix\n§\nappended by hand',
    ]);
    expect(git('log', '-1', '--format=%B', commits[0]?.slice(0, 40) ?? '')).toContain('Vigil-Session: s1');
    // Only MEMORY.md was ever captured: Vigil's lock and write-record files are left out of checkpoints.
    const stored = new Set(
      commits
        .flatMap((line) => git('ls-tree', '--name-only', line.slice(0, 40)).split('\n'))
        .filter((name) => name !== ''),
    );
    expect([...stored].sort()).toEqual(['MEMORY.md']);
    git('fsck', '--full', '--no-dangling');
  });

  it("puts each version of a memory folder inside Vigil's data folder on the timeline of a watching engine", async () => {
    // As in the app: $VIGIL_HOME/memories beside $VIGIL_HOME/checkpoints, whose engine ignores $VIGIL_HOME elsewhere.
    await checkpoints.dispose();
    checkpoints = new CheckpointEngine({ root: path.join(temp.dir, 'checkpoints'), logger: silentLogger, watch: true });
    const memory = await memoryServiceFor(memories, { checkpoints, watch: {} });
    try {
      await memory.mutate(memories, 'memory', { action: 'add', content: 'likes tea' });
      await memory.mutate(memories, 'memory', { action: 'add', content: 'uses vim' });
      await memory.settled();
    } finally {
      await memory.dispose();
    }
    expect(versionsOnTimeline()).toEqual([null, 'likes tea', 'likes tea\n§\nuses vim']);
    expect(await backupsIn(memories)).toEqual([]);
  });

  it('goes ahead and says so when the checkpoint fails', async () => {
    const problems: string[] = [];
    const failing: MemoryCheckpointer = {
      checkpoint: () => Promise.reject(new Error('the store is on a full disk')),
      noteWritten: () => undefined,
      resolve: (dir, ref) => checkpoints.resolve(dir, ref),
      readTree: (tree) => checkpoints.readTree(tree),
      readBlob: (oid) => checkpoints.readBlob(oid),
    };
    const memory = await memoryServiceFor(memories, {
      checkpoints: failing,
      onProblem: (message) => problems.push(message),
    });
    try {
      const result = await memory.mutate(memories, 'memory', { action: 'add', content: 'likes tea' });
      expect(result.outcome).toBe('changed');
      expect(result.checkpoint).toMatchObject({
        status: 'failed',
        message: expect.stringContaining('full disk') as string,
      });
    } finally {
      await memory.dispose();
    }
    expect(problems.some((problem) => problem.includes('full disk'))).toBe(true);
  });
});
