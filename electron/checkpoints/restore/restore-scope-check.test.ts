import { chmodSync, cpSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor, type RestoreOptions, type RestoreService } from './restore-service';
import { writeFiles } from '../test-support/restore-fixtures';

/** The check of the scope after a restore of paths named one by one, with the real engine and real folders. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let engine: CheckpointService;
let restore: RestoreService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-scope-'));
  dir = path.join(root, 'project');
  const checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: 1024 });
  restore = restoreServiceFor(engine, checkpointsRoot, silentLogger, undefined, { checkScopeAfterRestore: true });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

const base = { 'a.txt': 'original a\n', 'src/app.ts': 'export const app = 1;\n', 'src/lib.ts': 'lib 1\n' };

async function checkpoint(): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

/** Runs `change` once, right after every written file was read back (before the check of the scope). */
function afterReadBack(change: () => void): Pick<RestoreOptions, 'onProgress'> {
  return {
    onProgress: (step) => {
      if (step.phase === 'verify' && step.done === step.total) change();
    },
  };
}

/** Runs `change` once, as the writes begin (after the plan is made). */
function whileWriting(change: () => void): Pick<RestoreOptions, 'onProgress'> {
  return {
    onProgress: (step) => {
      if (step.phase === 'write' && step.done === 0) change();
    },
  };
}

/** The restore says it is incomplete and not verified: something in its scope differs from the checkpoint. */
function expectIncomplete(result: { readonly isVerified: boolean; readonly status: string }): void {
  expect(result.isVerified).toBe(false);
  expect(result.status).toBe('incomplete');
}

function summary(outcomes: readonly { readonly result: string; readonly action: string; readonly path: string }[]) {
  return outcomes.map((outcome) => `${outcome.result} ${outcome.action} ${outcome.path}`);
}

describe('the check of named paths after a restore', () => {
  it('passes named files that were written and read back', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n', 'src/app.ts': 'edited app\n' });
    const result = await restore.restore(dir, id, ['a.txt', 'src/app.ts']);
    expect(summary(result.outcomes)).toEqual(['done restore a.txt', 'done restore src/app.ts']);
    expect(result.status).toBe('complete');
    expect(result.isVerified).toBe(true);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe(base['src/app.ts']);
  });

  it('still compares a named folder: a change made in it meanwhile is reported', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n', 'src/lib.ts': 'edited lib\n' });
    // src/app.ts is unchanged when the plan is made; another program edits it while the restore writes.
    const result = await restore.restore(
      dir,
      id,
      ['a.txt', 'src'],
      whileWriting(() => writeFileSync(path.join(dir, 'src/app.ts'), 'edited during the restore\n')),
    );
    expect(summary(result.outcomes)).toEqual([
      'done restore a.txt',
      'done restore src/lib.ts',
      'conflict restore src/app.ts',
    ]);
    expectIncomplete(result);
  });

  it('reports a named file changed after its read-back, before the check', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n', 'src/app.ts': 'edited app\n', 'src/lib.ts': 'edited lib\n' });
    const result = await restore.restore(
      dir,
      id,
      ['a.txt', 'src/app.ts', 'src/lib.ts'],
      afterReadBack(() => {
        writeFileSync(path.join(dir, 'a.txt'), 'an agent wrote this after the read-back\n');
        chmodSync(path.join(dir, 'src/lib.ts'), 0o755);
      }),
    );
    expect(summary(result.outcomes)).toEqual([
      'done restore a.txt',
      'done restore src/app.ts',
      'done restore src/lib.ts',
      'conflict restore a.txt',
      'conflict restore src/lib.ts',
    ]);
    expectIncomplete(result);
  });

  it('reports a named file skipped as unchanged that another program edits while the restore runs', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n' });
    const result = await restore.restore(
      dir,
      id,
      ['a.txt', 'src/app.ts'],
      whileWriting(() => writeFileSync(path.join(dir, 'src/app.ts'), 'edited during the restore\n')),
    );
    expect(summary(result.outcomes)).toEqual([
      'done restore a.txt',
      'skipped skip src/app.ts',
      'conflict restore src/app.ts',
    ]);
    expectIncomplete(result);
  });

  it('reports a named file read back fine whose folder became a symlink before the check', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, { 'a.txt': 'edited a\n', 'src/app.ts': 'edited app\n' });
    const result = await restore.restore(
      dir,
      id,
      ['a.txt', 'src/app.ts'],
      afterReadBack(() => {
        // The same files, now reached through a link: a snapshot stores src as a symlink, not as the folder.
        cpSync(path.join(dir, 'src'), path.join(root, 'elsewhere'), { recursive: true });
        renameSync(path.join(dir, 'src'), path.join(root, 'moved-away'));
        symlinkSync(path.join(root, 'elsewhere'), path.join(dir, 'src'));
      }),
    );
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe(base['src/app.ts']);
    expect(summary(result.outcomes)).toEqual([
      'done restore a.txt',
      'done restore src/app.ts',
      'conflict recreate src/app.ts',
    ]);
    expectIncomplete(result);
  });
});
