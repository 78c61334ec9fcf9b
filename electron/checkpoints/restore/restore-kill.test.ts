import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isVigilTempFile } from '../../files/vigil-temp-name';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor } from './restore-service';
import { listFiles, runGit, writeFiles } from '../test-support/restore-fixtures';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'restore-kill.child.ts');

let root: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-kill-'));
});
afterEach(async () => {
  await remove();
});

/** Content big enough that a torn write would show; versions differ in the first line only (cheap line stats). */
function body(version: string, index: number): string {
  return `${version} ${index}\n${`line ${index} of a file long enough to tear\n`.repeat(400)}`;
}

/**
 * Runs the restore in a child that SIGKILLs itself at `killAt` (see restore-kill.child.ts): the
 * kill lands at that exact point however loaded the machine is.
 */
function restoreKilledAt(
  checkpointsRoot: string,
  dir: string,
  id: string,
  killAt: string,
): Promise<{ signal: NodeJS.Signals | null; lines: string[]; output: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, checkpointsRoot, dir, id, killAt], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve) =>
    proc.on('exit', (_code, signal) =>
      resolve({ signal, lines: output.split('\n').filter((text) => text !== ''), output }),
    ),
  );
}

/** Temp files an interrupted writer can leave in the store. */
function storeLeftovers(gitdir: string): string[] {
  return readdirSync(path.join(gitdir, 'objects'), { recursive: true })
    .map(String)
    .filter((name) => /tmp_|\.tmp-/.test(name));
}

/** Vigil temp files anywhere under the directory. */
function tempsIn(dir: string): string[] {
  return listFiles(dir).filter((file) => isVigilTempFile(path.basename(file)));
}

const count = 800;
const created = 150;

describe('a restore killed with SIGKILL', () => {
  // Deletions (the 150 files created since the checkpoint) come first in the write phase, progress every 64 files.
  it.each([
    { when: 'during the pre-rollback snapshot', killAt: 'snapshot 0', writesBegan: false },
    { when: 'once the pre-rollback objects are durable, around its ref move', killAt: 'synced', writesBegan: false },
    { when: 'during the deletions', killAt: 'write 64', writesBegan: true },
    { when: 'during the writes', killAt: 'write 256', writesBegan: true },
  ])(
    '$when: every file is old or new, the store is valid, and the directory is restorable and restored on a second run',
    { timeout: 120_000 },
    async ({ killAt, writesBegan }) => {
      const dir = path.join(root, 'project');
      const checkpointsRoot = path.join(root, 'home', 'checkpoints');
      const gitdir = path.join(checkpointsRoot, 'store');
      const target: Record<string, string> = {};
      for (let index = 0; index < count; index += 1) target[`d${index % 30}/f${index}.txt`] = body('checkpoint', index);
      writeFiles(dir, { ...target, 'node_modules/keep.js': 'excluded\n' });
      const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
      const taken = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (taken.kind !== 'created') throw new Error('no checkpoint');
      const id = taken.checkpoint.id;
      await engine.dispose();

      // Since the checkpoint: every file edited, a fifth deleted, and 150 new files created.
      const current: Record<string, string> = {};
      for (let index = 0; index < count; index += 1)
        if (index % 5 !== 0) current[`d${index % 30}/f${index}.txt`] = body('edited', index);
      for (let index = 0; index < created; index += 1)
        current[`new${index % 7}/n${index}.txt`] = body('created', index);
      for (let index = 0; index < count; index += 5) rmSync(path.join(dir, `d${index % 30}/f${index}.txt`));
      writeFiles(dir, { ...current, 'node_modules/keep.js': 'excluded, edited\n' });

      const run = await restoreKilledAt(checkpointsRoot, dir, id, killAt);
      expect(run.signal, run.output).toBe('SIGKILL');
      expect(run.lines).not.toContain('finished');

      // Every file is whole: its old version, or the checkpoint's, never a mix; nothing else appeared.
      let restored = 0;
      for (const file of listFiles(dir, ['node_modules'])) {
        if (isVigilTempFile(path.basename(file))) continue;
        const content = readFileSync(path.join(dir, file), 'utf8');
        const isOld = current[file] === content;
        const isNew = target[file] === content;
        expect(isOld || isNew, `${file} is neither its old nor its restored version`).toBe(true);
        if (isNew && !isOld) restored += 1;
      }
      // Nothing is touched before the pre-rollback snapshot is complete.
      if (!writesBegan) {
        expect(restored).toBe(0);
        expect(listFiles(dir, ['node_modules'])).toEqual(Object.keys(current).sort());
      }
      expect(readFileSync(path.join(dir, 'node_modules/keep.js'), 'utf8')).toBe('excluded, edited\n');

      const again = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
      try {
        // Reopening repairs what the kill left: git finds the store valid, no temp object or pack is left.
        const [newest] = await again.list(dir, { limit: 1 });
        runGit(['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling']);
        expect(storeLeftovers(gitdir)).toEqual([]);
        const restore = restoreServiceFor(again, checkpointsRoot, silentLogger);
        if (writesBegan) expect(newest?.kind).toBe('pre-rollback');
        if (newest?.kind === 'pre-rollback') {
          // Undo: the pre-rollback snapshot brings back the state before the restore.
          const undo = await restore.restore(dir, newest.id);
          expect(undo.counts.conflict + undo.counts.failed).toBe(0);
          const after = listFiles(dir, ['node_modules']).filter((file) => !isVigilTempFile(path.basename(file)));
          expect(after).toEqual(Object.keys(current).sort());
          for (const file of after) expect(readFileSync(path.join(dir, file), 'utf8')).toBe(current[file]);
        } else {
          expect(newest?.id).toBe(id);
        }
        // And the interrupted restore can simply be run again to the end; its writes swept the killed one's temp files.
        const finished = await restore.restore(dir, id);
        expect(finished.counts.conflict + finished.counts.failed).toBe(0);
        expect(listFiles(dir, ['node_modules'])).toEqual(Object.keys(target).sort());
        for (const [file, content] of Object.entries(target))
          expect(readFileSync(path.join(dir, file), 'utf8')).toBe(content);
        expect(existsSync(path.join(dir, 'new0'))).toBe(false);
        expect(tempsIn(dir)).toEqual([]);
        runGit(['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling']);
      } finally {
        await again.dispose();
      }
    },
  );
});
