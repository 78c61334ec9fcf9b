import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import { created, fsck, generateTree, gitWriteTree, testService, writeTree } from './test-support/store-fixtures';

/** Changes files from another process, as an agent's shell command or an editor would. */
function inChild(script: string, cwd: string): void {
  execFileSync(process.execPath, ['-e', script], { cwd });
}

describe('checkpoints while watching (the app and the server)', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService;
  let shadowCount = 0;

  const reference = (): string => gitWriteTree(path.join(base, `shadow-${shadowCount++}`), dir);

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-watchsnap-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    generateTree(dir, 300);
    service = testService(path.join(base, 'home/checkpoints'), { watch: true });
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('sees changes made by other processes right before the checkpoint', async () => {
    const first = created(await service.checkpoint(dir, { reason: 'before write_file' }));
    inChild("require('fs').writeFileSync('d2/f3.txt', 'edited by a shell\\n')", dir);
    const second = created(await service.checkpoint(dir, { reason: 'before patch' }));
    expect(second.parent).toBe(first.id);
    expect(second.stats.files).toBe(1);
    expect(second.tree).toBe(reference());
    inChild(
      "const fs = require('fs'); fs.mkdirSync('new/deeper', { recursive: true }); fs.writeFileSync('new/deeper/n.txt', 'n\\n'); fs.rmSync('d4', { recursive: true })",
      dir,
    );
    const third = created(await service.checkpoint(dir, { reason: 'before terminal: rm -r d4' }));
    expect(third.stats.files).toBe(51);
    expect(third.tree).toBe(reference());
    expect(await service.checkpoint(dir, { reason: 'before patch' })).toEqual({ kind: 'unchanged', head: third.id });
  });

  it('takes Vigil-reported writes and the paths a caller is about to change', async () => {
    await service.checkpoint(dir, { reason: 'before write_file' });
    writeFileSync(path.join(dir, 'd1/f1.txt'), 'written by Vigil\n');
    service.noteWritten([path.join(dir, 'd1/f1.txt'), path.join(base, 'outside.txt')]);
    const second = created(
      await service.checkpoint(dir, { reason: 'before write_file', paths: [path.join(dir, 'd1/f1.txt')] }),
    );
    expect(second.stats.files).toBe(1);
    expect(second.tree).toBe(reference());
  });

  it('follows a timeline moved by another process (a one-shot CLI checkpoint)', async () => {
    const first = created(await service.checkpoint(dir, { reason: 'before write_file' }));
    const cli = testService(path.join(base, 'home/checkpoints'));
    try {
      writeTree(dir, { 'cli.txt': 'from the cli\n' });
      const byCli = created(await cli.checkpoint(dir, { reason: 'manual checkpoint' }));
      expect(byCli.parent).toBe(first.id);
      rmSync(path.join(dir, 'd0'), { recursive: true });
      const next = created(await service.checkpoint(dir, { reason: 'before patch' }));
      expect(next.parent).toBe(byCli.id);
      expect(next.tree).toBe(reference());
      expect(fsck(service.gitdir)).toBe('');
    } finally {
      await cli.dispose();
    }
  });
});
