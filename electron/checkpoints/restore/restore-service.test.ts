import {
  chmodSync,
  existsSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor, type RestoreProgress, type RestoreService } from './restore-service';
import { listFiles, runGit, writeFiles } from '../test-support/restore-fixtures';

/** End to end with the real engine: pre-rollback snapshots, undo, stale plans, git's own view of the store. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
let engine: CheckpointService;
let restore: RestoreService;
let progress: RestoreProgress[];
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-service-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: 1024 });
  progress = [];
  restore = restoreServiceFor(engine, checkpointsRoot, silentLogger, {
    emit: (name, payload) => {
      if (name === 'checkpoints:restore-progressed') progress.push(payload as RestoreProgress);
    },
  });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

const base = {
  'a.txt': 'original a\n',
  'src/app.ts': 'export const app = 1;\n',
  'bin/run': { content: '#!/bin/sh\necho run\n', mode: 0o755 },
  link: { symlink: 'a.txt' },
  'gone.txt': 'will be deleted\n',
  'node_modules/dep/index.js': 'dep v1\n',
  '.env': 'SECRET=one\n',
  'big.txt': 'b'.repeat(4096),
};

async function checkpoint(reason = 'before write_file'): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

/** Every file under the project with its content (symlinks as "-> target"), excluded ones included. */
function snapshotOfDisk(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of listFiles(dir)) {
    const absolute = path.join(dir, file);
    let text: string;
    try {
      text = `-> ${readlinkSync(absolute)}`;
    } catch {
      text = `${readFileSync(absolute, 'utf8')} (${(statSync(absolute).mode & 0o111) === 0 ? 'rw' : 'rwx'})`;
    }
    files[file] = text;
  }
  return files;
}

function git(...args: string[]): string {
  return runGit(['--git-dir', engine.gitdir, ...args]);
}

describe('restore with the checkpoint engine', () => {
  it('restores the whole directory after a pre-rollback snapshot, and undoing brings everything back', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, {
      'a.txt': 'edited a\n',
      link: 'now a file\n',
      'new.txt': 'created after\n',
      'deep/new/n.txt': 'deep\n',
      'node_modules/dep/index.js': 'dep v2\n',
      '.env': 'SECRET=two\n',
      'big.txt': 'c'.repeat(4096),
    });
    chmodSync(path.join(dir, 'bin/run'), 0o644);
    rmSync(path.join(dir, 'gone.txt'));
    const before = snapshotOfDisk();

    const preview = await restore.plan(dir, '1');
    const result = await restore.restore(dir, id.slice(0, 10), [], { fingerprint: preview.fingerprint });
    expect(result.plan.fingerprint).toBe(preview.fingerprint);
    expect(result.outcomes.map((outcome) => `${outcome.result} ${outcome.action} ${outcome.path}`)).toEqual([
      'done restore a.txt',
      'done restore bin/run',
      'done delete deep/new/n.txt',
      'done recreate gone.txt',
      'done restore link',
      'done delete new.txt',
    ]);
    expect(result.isVerified).toBe(true);
    expect(result.removedDirectories).toEqual(['deep/new', 'deep']);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original a\n');
    expect(readlinkSync(path.join(dir, 'link'))).toBe('a.txt');
    expect(statSync(path.join(dir, 'bin/run')).mode & 0o100).toBe(0o100);
    expect(existsSync(path.join(dir, 'new.txt'))).toBe(false);
    // Excluded and oversize files are never touched.
    expect(readFileSync(path.join(dir, 'node_modules/dep/index.js'), 'utf8')).toBe('dep v2\n');
    expect(readFileSync(path.join(dir, '.env'), 'utf8')).toBe('SECRET=two\n');
    expect(readFileSync(path.join(dir, 'big.txt'), 'utf8')).toBe('c'.repeat(4096));

    // The pre-rollback snapshot is on the timeline, explains itself to git, and holds the state before.
    const [newest] = await engine.list(dir, { limit: 1 });
    expect(newest?.id).toBe(result.preRollback.id);
    expect(newest?.kind).toBe('pre-rollback');
    expect(newest?.restores).toBe(id);
    // The result names the number that undoes it, as the timeline lists it now (1 = newest).
    expect(result.undoNumber).toBe(1);
    const message = git('log', '-1', '--format=%B', result.preRollback.id);
    expect(message).toContain(`pre-rollback snapshot (restoring to ${id.slice(0, 8)})`);
    expect(message).toContain('Vigil-Kind: pre-rollback');
    expect(message).toContain(`Vigil-Restores: ${id}`);
    expect(git('show', `${result.preRollback.id}:new.txt`)).toBe('created after');
    git('fsck', '--full', '--strict');

    // Undo = restore the pre-rollback snapshot.
    const undo = await restore.restore(dir, result.preRollback.id);
    expect(undo.counts.conflict + undo.counts.failed).toBe(0);
    expect(snapshotOfDisk()).toEqual(before);
    expect(undo.plan.changedOutsideAgents).toBe(0);
    expect(undo.undoNumber).toBe(1);
  });

  it('restores only the selected files and leaves the rest as they are', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, {
      'a.txt': 'edited a\n',
      'src/app.ts': 'edited app\n',
      'new.txt': 'new\n',
      'src/extra.ts': 'extra\n',
    });
    const result = await restore.restore(dir, id, ['a.txt', 'src/extra.ts']);
    expect(result.outcomes.map((outcome) => `${outcome.action} ${outcome.path}`)).toEqual([
      'restore a.txt',
      'delete src/extra.ts',
    ]);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original a\n');
    expect(existsSync(path.join(dir, 'src/extra.ts'))).toBe(false);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('edited app\n');
    expect(readFileSync(path.join(dir, 'new.txt'), 'utf8')).toBe('new\n');
  });

  it('takes the pre-rollback snapshot of chosen files from the whole folder, so undoing it as printed (a whole restore) keeps every other edit', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n', 'src/app.ts': 'edited app\n', 'new.txt': 'new\n' });
    // A fresh engine, as each CLI command has: no watcher, the stat cache from disk.
    await engine.dispose();
    engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: 1024 });
    restore = restoreServiceFor(engine, checkpointsRoot, silentLogger, { emit: () => undefined });
    const before = snapshotOfDisk();
    const result = await restore.restore(dir, id, ['a.txt']);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original a\n');
    const pre = result.preRollback.id;
    // The snapshot holds the folder as it was: the chosen file and every other one (it once kept the others as
    // the checkpoint before it had them, so the printed undo put src/app.ts back to that and deleted new.txt).
    expect(git('show', `${pre}:a.txt`)).toBe('edited a');
    expect(git('show', `${pre}:src/app.ts`)).toBe('edited app');
    expect(git('show', `${pre}:new.txt`)).toBe('new');
    expect(git('log', '-1', '--format=%B', pre)).not.toContain('Vigil-Scope');
    git('fsck', '--full', '--strict');
    // Undo as the CLI prints it: restore the pre-rollback snapshot, whole.
    const undo = await restore.restore(dir, pre);
    expect(undo.outcomes.map((outcome) => `${outcome.result} ${outcome.action} ${outcome.path}`)).toEqual([
      'done restore a.txt',
    ]);
    expect(snapshotOfDisk()).toEqual(before);
  });

  it('restores the same checkpoint twice: the second plan is empty, not an error', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited\n' });
    await restore.restore(dir, id);
    const second = await restore.restore(dir, id);
    expect(second.plan.entries).toEqual([]);
    expect(second.outcomes).toEqual([]);
    expect((await restore.plan(dir, id)).entries).toEqual([]);
  });

  it('refuses a stale plan and changes nothing', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited\n' });
    const plan = await restore.plan(dir, id);
    writeFiles(dir, { 'a.txt': 'edited again by somebody\n', 'other.txt': 'also new\n' });
    await expect(restore.restore(dir, id, [], { fingerprint: plan.fingerprint })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('edited again by somebody\n');
    expect(readFileSync(path.join(dir, 'other.txt'), 'utf8')).toBe('also new\n');
  });

  it('judges the directory exactly as the engine does, so a preview matches the restore it approves', async () => {
    writeFiles(dir, {
      ...base,
      'nested/.git/HEAD': 'ref: x\n',
      'nested/lib.py': 'x = 1\n',
      'pic.png': 'png',
      'dist/out.js': 'built\n',
      dangling: { symlink: 'nowhere' },
    });
    const id = await checkpoint();
    writeFiles(dir, {
      'a.txt': 'x\n',
      'nested/lib.py': 'x = 2\n',
      'nested/.git/HEAD': 'ref: y\n',
      'dist/out.js': 'rebuilt\n',
      'new/file.txt': 'n\n',
    });
    const preview = await restore.plan(dir, id);
    expect(preview.entries.map((entry) => `${entry.action} ${entry.path}`)).toEqual([
      'restore a.txt',
      'restore nested/lib.py',
      'delete new/file.txt',
    ]);
    const result = await restore.restore(dir, id, [], { fingerprint: preview.fingerprint });
    expect(result.counts.done).toBe(3);
    expect(readFileSync(path.join(dir, 'nested/.git/HEAD'), 'utf8')).toBe('ref: y\n');
    expect(readFileSync(path.join(dir, 'dist/out.js'), 'utf8')).toBe('rebuilt\n');
  });

  it('reports progress from the snapshot to the end', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited\n', 'src/app.ts': 'edited\n' });
    await restore.restore(dir, id);
    expect(progress.map((step) => `${step.phase} ${step.done}/${step.total}`)).toEqual([
      'snapshot 0/1',
      'snapshot 1/1',
      'write 0/2',
      'write 2/2',
      'verify 2/2',
      'done 2/2',
    ]);
    expect(progress.every((step) => step.dir === dir && step.checkpoint === id)).toBe(true);
  });

  it('reports a file that changed while the restore ran instead of looking complete', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited\n' });
    const checked = restoreServiceFor(engine, checkpointsRoot, silentLogger, undefined, {
      checkScopeAfterRestore: true,
    });
    const result = await checked.restore(dir, id, [], {
      onProgress: (step) => {
        // Another program edits a file the plan found unchanged, after the pre-rollback snapshot.
        if (step.phase === 'write' && step.done === 0)
          writeFileSync(path.join(dir, 'src/app.ts'), 'edited during the restore\n');
      },
    });
    expect(result.outcomes.map((outcome) => `${outcome.result} ${outcome.action} ${outcome.path}`)).toEqual([
      'done restore a.txt',
      'conflict restore src/app.ts',
    ]);
    expect(result.isVerified).toBe(false);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('edited during the restore\n');
  });

  it('never overwrites a file changed after the pre-rollback snapshot, even with its size and mtime kept', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n', 'src/app.ts': 'export const app = 2;\n' });
    // Old enough that the snapshot's stat records of them are trusted, not racy.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const file of ['a.txt', 'src/app.ts']) utimesSync(path.join(dir, file), hourAgo, hourAgo);
    const result = await restore.restore(dir, id, [], {
      onProgress: (step) => {
        if (step.phase !== 'write' || step.done !== 0) return;
        // Another program rewrites it in place after the snapshot: same size, same mtime; only its ctime moves.
        writeFileSync(path.join(dir, 'src/app.ts'), 'export const app = 3;\n');
        utimesSync(path.join(dir, 'src/app.ts'), hourAgo, hourAgo);
      },
    });
    expect(result.outcomes.find((outcome) => outcome.path === 'src/app.ts')?.result).toBe('conflict');
    expect(result.outcomes.find((outcome) => outcome.path === 'a.txt')?.result).toBe('done');
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('export const app = 3;\n');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original a\n');
    expect(result.status).toBe('incomplete');
  });

  it('restores many files across many folders at once, each as git shows the checkpoint, and refuses exactly the one changed meanwhile', async () => {
    const names = Array.from({ length: 60 }, (_, index) => `f${index % 12}/file${index}.txt`);
    const nested = ['gone/deep/x.txt', 'gone/deep/y.txt', 'gone/z.txt'];
    writeFiles(dir, Object.fromEntries([...names, ...nested].map((name) => [name, `checkpoint ${name}\n`])));
    const id = await checkpoint();
    writeFiles(dir, Object.fromEntries(names.map((name) => [name, `work ${name}\n`])));
    rmSync(path.join(dir, 'gone'), { recursive: true });
    const changed = 'f7/file31.txt';
    const result = await restore.restore(dir, id, [], {
      onProgress: (step) => {
        // Another program edits one of them after the pre-rollback snapshot, before any write.
        if (step.phase === 'write' && step.done === 0) writeFileSync(path.join(dir, changed), 'theirs\n');
      },
    });
    const results = Object.fromEntries(result.outcomes.map((outcome) => [outcome.path, outcome.result]));
    expect(results).toEqual(
      Object.fromEntries([...names, ...nested].sort().map((name) => [name, name === changed ? 'conflict' : 'done'])),
    );
    expect(result.counts).toMatchObject({ done: names.length + nested.length - 1, conflict: 1 });
    expect(result.status).toBe('incomplete');
    expect(readFileSync(path.join(dir, changed), 'utf8')).toBe('theirs\n');
    for (const name of [...names, ...nested].filter((item) => item !== changed))
      expect(readFileSync(path.join(dir, name), 'utf8'), name).toBe(git('cat-file', 'blob', `${id}:${name}`) + '\n');
    // Undoing gives back the work as it was before the restore, the one refused file included.
    await restore.restore(dir, result.preRollback.id);
    expect(readFileSync(path.join(dir, names[0] ?? ''), 'utf8')).toBe(`work ${names[0] ?? ''}\n`);
    expect(existsSync(path.join(dir, 'gone'))).toBe(false);
  });

  it("sweeps a dead writer's temp files from the folders it writes, whether or not it checks the scope after writing", async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    // By name (the check after writing looks the file up by name: the writes sweep) and whole (the check lists every folder).
    for (const [checksScope, paths] of [
      [false, ['src/app.ts']],
      [true, ['src/app.ts']],
      [true, []],
    ] as const) {
      const service = restoreServiceFor(engine, checkpointsRoot, silentLogger, undefined, {
        checkScopeAfterRestore: checksScope,
      });
      writeFileSync(path.join(dir, 'src/app.ts'), `changed ${String(checksScope)} ${paths.length}\n`);
      const stale = path.join(dir, 'src', `.app.ts.vigil-tmp-${deadPid}-0-0123456789ab`);
      writeFileSync(stale, 'left by a writer that died\n');
      const result = await service.restore(dir, id, paths);
      expect(result.status).toBe('complete');
      expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe(base['src/app.ts']);
      expect(existsSync(stale)).toBe(false);
    }
  });

  it('brings back a directory that was deleted whole', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
    const id = await checkpoint();
    rmSync(dir, { recursive: true });
    const result = await restore.restore(dir, id);
    expect(result.counts.done).toBe(2);
    expect(readFileSync(path.join(dir, 'sub/b.txt'), 'utf8')).toBe('b\n');
  });
});
