import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isVigilTempFile } from '../files/vigil-temp-name';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { CheckpointService } from './checkpoint-service';
import { restoreServiceFor } from './restore-service';
import { listFiles, runGit, writeFiles } from './test-support/restore-fixtures';

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

/** Starts the restore in a child and SIGKILLs it once `killAt` files of the write phase are done. */
function restoreAndKill(checkpointsRoot: string, dir: string, id: string, killAt: number): Promise<{ signal: NodeJS.Signals | null; lastDone: number; output: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, checkpointsRoot, dir, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let lastDone = 0;
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const match of chunk.matchAll(/^write (\d+) \d+$/gm)) {
      lastDone = Number(match[1]);
      if (lastDone >= killAt) proc.kill('SIGKILL');
    }
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve) => proc.on('exit', (_code, signal) => resolve({ signal, lastDone, output })));
}

describe('a restore killed with SIGKILL', () => {
  it('leaves every file old or new, and the directory restorable from the pre-rollback snapshot', { timeout: 120_000 }, async () => {
    const dir = path.join(root, 'project');
    const checkpointsRoot = path.join(root, 'home', 'checkpoints');
    const count = 800;
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
    for (let index = 0; index < count; index += 1) if (index % 5 !== 0) current[`d${index % 30}/f${index}.txt`] = body('edited', index);
    for (let index = 0; index < 150; index += 1) current[`new${index % 7}/n${index}.txt`] = body('created', index);
    for (let index = 0; index < count; index += 5) rmSync(path.join(dir, `d${index % 30}/f${index}.txt`));
    writeFiles(dir, { ...current, 'node_modules/keep.js': 'excluded, edited\n' });

    const run = await restoreAndKill(checkpointsRoot, dir, id, 256);
    expect(run.signal, run.output).toBe('SIGKILL');
    expect(run.lastDone).toBeLessThan(count + 150);

    // Every file is whole: its old version, or the checkpoint's, never a mix; nothing else appeared.
    let restored = 0;
    let untouched = 0;
    for (const file of listFiles(dir, ['node_modules'])) {
      if (isVigilTempFile(path.basename(file))) continue;
      const content = readFileSync(path.join(dir, file), 'utf8');
      const isOld = current[file] === content;
      const isNew = target[file] === content;
      expect(isOld || isNew, `${file} is neither its old nor its restored version`).toBe(true);
      if (isNew && !isOld) restored += 1;
      else untouched += 1;
    }
    expect(restored).toBeGreaterThan(0);
    expect(untouched).toBeGreaterThan(0);
    expect(readFileSync(path.join(dir, 'node_modules/keep.js'), 'utf8')).toBe('excluded, edited\n');
    runGit(['--git-dir', path.join(checkpointsRoot, 'store'), 'fsck', '--full']);

    // The pre-rollback snapshot was taken before any write: restoring it brings back the state before.
    const again = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
    try {
      const [pre] = await again.list(dir, { limit: 1 });
      expect(pre?.kind).toBe('pre-rollback');
      const restore = restoreServiceFor(again, checkpointsRoot, silentLogger);
      const undo = await restore.restore(dir, pre?.id ?? '');
      expect(undo.counts.conflict + undo.counts.failed).toBe(0);
      const after = listFiles(dir, ['node_modules']).filter((file) => !isVigilTempFile(path.basename(file)));
      expect(after).toEqual(Object.keys(current).sort());
      for (const file of after) expect(readFileSync(path.join(dir, file), 'utf8')).toBe(current[file]);
      // And the interrupted restore can simply be run again to the end.
      const finished = await restore.restore(dir, id);
      expect(finished.counts.conflict + finished.counts.failed).toBe(0);
      for (const [file, content] of Object.entries(target)) expect(readFileSync(path.join(dir, file), 'utf8')).toBe(content);
      expect(existsSync(path.join(dir, 'new0'))).toBe(false);
    } finally {
      await again.dispose();
    }
  });
});
