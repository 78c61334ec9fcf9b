import { lstat, open, readFile, readdir, rename, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { writeMemoryBackup } from './memory-backup';
import { joinEntries, serializeEntries } from './memory-format';
import { memoryLockPath, withMemoryLock } from './memory-lock';
import type { MemoryService } from './memory-service';
import {
  backupsIn,
  holdMemoryLockInChild,
  memoryServiceFor,
  rejection,
  writeBackupsFromProcesses,
} from './test-support/memory-fixtures';

let temp: { dir: string; remove: () => Promise<void> };
let memory: MemoryService;
let file: string;

beforeEach(async () => {
  temp = await makeTempDir();
  memory = await memoryServiceFor(temp.dir);
  file = path.join(temp.dir, 'MEMORY.md');
});
afterEach(async () => {
  await memory.dispose();
  await temp.remove();
});

describe('drift backups', () => {
  it('never overwrite: two different drifts in the same millisecond get two files', async () => {
    const now = new Date('2026-05-23T09:51:00.123Z');
    const first = await writeMemoryBackup(file, Buffer.from('first drift'), now);
    const second = await writeMemoryBackup(file, Buffer.from('second drift'), now);
    const third = await writeMemoryBackup(file, Buffer.from('third drift'), now);
    expect(path.basename(first.path)).toBe('MEMORY.md.bak.2026-05-23T09-51-00-123Z');
    expect(path.basename(second.path)).toBe('MEMORY.md.bak.2026-05-23T09-51-00-123Z-2');
    expect(path.basename(third.path)).toBe('MEMORY.md.bak.2026-05-23T09-51-00-123Z-3');
    expect(await readFile(first.path, 'utf8')).toBe('first drift');
    expect(await readFile(second.path, 'utf8')).toBe('second drift');
    if (process.platform !== 'win32') expect((await stat(first.path)).mode & 0o777).toBe(0o600);
  });

  it('never overwrite one another when several processes back up in the same millisecond', async () => {
    const now = new Date('2026-05-23T09:51:00.123Z');
    const paths = await writeBackupsFromProcesses(file, 4, 40, now);
    expect(paths).toHaveLength(160);
    expect(new Set(paths).size).toBe(160);
    const contents = await Promise.all(
      (await backupsIn(temp.dir)).map((name) => readFile(path.join(temp.dir, name), 'utf8')),
    );
    const expected = Array.from({ length: 4 }, (_, id) =>
      Array.from({ length: 40 }, (__, index) => `writer ${id} backup ${index}`),
    ).flat();
    expect(contents.sort()).toEqual(expected.sort());
  }, 60_000);

  it('never write through a planted symlink', async () => {
    const victim = path.join(temp.dir, 'victim.txt');
    await writeFile(victim, 'precious');
    const now = new Date('2026-05-23T09:51:00.123Z');
    await symlink(victim, `${file}.bak.2026-05-23T09-51-00-123Z`);
    const backup = await writeMemoryBackup(file, Buffer.from('drift'), now);
    expect(path.basename(backup.path)).toBe('MEMORY.md.bak.2026-05-23T09-51-00-123Z-2');
    expect(await readFile(victim, 'utf8')).toBe('precious');
  });

  it('never take a planted symlink to identical bytes as an earlier backup: a real one is written', async () => {
    const elsewhere = path.join(temp.dir, 'elsewhere.txt');
    await writeFile(elsewhere, 'drift');
    await symlink(elsewhere, `${file}.bak.2026-05-23T09-50-00-000Z`);
    const backup = await writeMemoryBackup(file, Buffer.from('drift'), new Date('2026-05-23T09:51:00.123Z'));
    expect(backup).toMatchObject({ isReused: false });
    expect((await lstat(backup.path)).isFile()).toBe(true);
  });

  it('reuse an identical earlier backup instead of piling up copies when an agent retries', async () => {
    await writeFile(file, `free-form notes\n${'x'.repeat(2300)}`);
    const first = await rejection(
      memory.mutate(temp.dir, 'memory', { action: 'replace', oldText: 'notes', content: 'a' }),
    );
    const second = await rejection(memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'notes' }));
    const firstBackup = (first.details as { drift_backup: string }).drift_backup;
    expect((second.details as { drift_backup: string }).drift_backup).toBe(firstBackup);
    expect(second.message).toContain('saved by an earlier refusal');
    expect(await backupsIn(temp.dir)).toHaveLength(1);
    await writeFile(file, `other free-form notes\n${'y'.repeat(2300)}`);
    const third = await rejection(memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'notes' }));
    expect((third.details as { drift_backup: string }).drift_backup).not.toBe(firstBackup);
    expect(await backupsIn(temp.dir)).toHaveLength(2);
  });
});

describe('the memory lock', () => {
  it("is Vigil's own 0600 file beside MEMORY.md, never Hermes's MEMORY.md.lock, and is gone afterwards", async () => {
    const hermesLock = path.join(temp.dir, 'MEMORY.md.lock');
    await writeFile(hermesLock, '');
    const lockPath = memoryLockPath(file);
    expect(path.basename(lockPath)).toBe('.MEMORY.md.vigil-lock');
    const seen = await withMemoryLock(file, async () => {
      const stats = await stat(lockPath);
      return { mode: stats.mode & 0o777, holder: JSON.parse(await readFile(lockPath, 'utf8')) as { pid: number } };
    });
    if (process.platform !== 'win32') expect(seen.mode).toBe(0o600);
    expect(seen.holder.pid).toBe(process.pid);
    await expect(lstat(lockPath)).rejects.toThrow();
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'x' });
    expect(await readFile(hermesLock, 'utf8')).toBe('');
    expect((await readdir(temp.dir)).filter((name) => name.includes('lock')).sort()).toEqual(['MEMORY.md.lock']);
  });

  it('is never followed through a symlink', async () => {
    const victim = path.join(temp.dir, 'victim.txt');
    await writeFile(victim, 'precious');
    await symlink(victim, memoryLockPath(file));
    const error = await rejection(memory.mutate(temp.dir, 'memory', { action: 'add', content: 'x' }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('symbolic link');
    expect(await readFile(victim, 'utf8')).toBe('precious');
    await expect(stat(file)).rejects.toThrow();
  });

  it('makes a writer in another process wait, then fail with busy naming the holder', async () => {
    const impatient = await memoryServiceFor(temp.dir, { lockTimeoutMs: 300 });
    const holder = await holdMemoryLockInChild(file, 'a long change');
    try {
      const error = await rejection(impatient.mutate(temp.dir, 'memory', { action: 'add', content: 'x' }));
      expect(error.code).toBe('busy');
      expect(error.message).toContain(`process ${holder.child.pid ?? ''}`);
      expect(error.message).toContain('a long change');
      await expect(stat(file)).rejects.toThrow();
      await holder.release();
      expect((await impatient.mutate(temp.dir, 'memory', { action: 'add', content: 'x' })).outcome).toBe('changed');
    } finally {
      await holder.release();
      await impatient.dispose();
    }
  });

  it('is taken over from a holder killed with SIGKILL', async () => {
    const holder = await holdMemoryLockInChild(file, 'doomed');
    holder.child.kill('SIGKILL');
    await holder.release();
    expect((await lstat(memoryLockPath(file))).isFile()).toBe(true);
    expect((await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'after the crash' })).outcome).toBe(
      'changed',
    );
    expect(await readFile(file, 'utf8')).toBe('after the crash\n');
  });
});

describe('writers that race a replace', () => {
  it("keep a version another program renamed into place between the writer's last check and its rename", async () => {
    const problems: string[] = [];
    let isRaced = false;
    const racing = await memoryServiceFor(temp.dir, {
      onProblem: (message) => problems.push(message),
      // An editor saving MEMORY.md (temp file + rename) at the worst moment: after Vigil's check.
      afterWriteCheck: async () => {
        if (isRaced) return;
        isRaced = true;
        const editorTemp = path.join(temp.dir, '.MEMORY.md.editor-tmp');
        await writeFile(editorTemp, joinEntries(['likes tea', 'saved by an editor']));
        await rename(editorTemp, file);
      },
    });
    try {
      await writeFile(file, 'likes tea');
      const result = await racing.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' });
      expect(result.outcome).toBe('changed');
      expect(await readFile(file, 'utf8')).toBe(serializeEntries(['likes tea', 'uses vim']));
      const raced = result.preserved.find((item) => item.reason === 'raced-write');
      expect(raced?.entries).toEqual(['saved by an editor']);
      expect(await readFile(raced?.backup ?? '', 'utf8')).toBe(joinEntries(['likes tea', 'saved by an editor']));
      expect(result.message).toContain(raced?.backup);
      expect(problems.join('\n')).toContain('while Vigil was replacing it');
      // The hidden link that kept it is gone.
      expect((await readdir(temp.dir)).filter((name) => name.includes('vigil-tmp'))).toEqual([]);
    } finally {
      await racing.dispose();
    }
  });

  it('keep nothing extra when no other program wrote', async () => {
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
    const result = await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' });
    expect(result.preserved).toEqual([]);
    expect((await readdir(temp.dir)).filter((name) => !name.startsWith('.'))).toEqual(['MEMORY.md']);
  });

  it('rescue a write that lands in the old file after Vigil renamed over it', async () => {
    const problems: string[] = [];
    const watched = await memoryServiceFor(temp.dir, { onProblem: (message) => problems.push(message) });
    await watched.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
    // `cat >> MEMORY.md` that opened the file just before Vigil's rename and writes just after it.
    const late = await open(file, 'a');
    try {
      await watched.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' });
      await late.write('written through a stale handle\n');
    } finally {
      await late.close();
      await watched.dispose();
    }
    expect(await readFile(file, 'utf8')).toBe('likes tea\n§\nuses vim\n');
    const rescued = await Promise.all(
      (await backupsIn(temp.dir)).map((name) => readFile(path.join(temp.dir, name), 'utf8')),
    );
    expect(rescued).toEqual(['likes tea\nwritten through a stale handle\n']);
    expect(problems.join('\n')).toContain('just after Vigil replaced it');
  });
});

describe('adopting a drifted file', () => {
  // Drifted by Hermes's rule: a space before a § line, which a rewrite would drop.
  const drifted = 'likes tea \n§\nuses vim\n\n# Vendor Master\nAcme: net 30\n\n# Standing Orders\nship on Fridays\n';

  it('proposes entries, writes the confirmed ones after a checkpoint-ready backup, and unblocks mutations', async () => {
    await writeFile(file, drifted);
    const plan = await memory.proposeAdoption(temp.dir, 'memory');
    expect(plan.drift.isDrifted).toBe(true);
    const headings = plan.proposals.find((proposal) => proposal.strategy === 'headings');
    expect(headings?.entries).toEqual([
      'likes tea',
      'uses vim',
      '# Vendor Master\nAcme: net 30',
      '# Standing Orders\nship on Fridays',
    ]);
    const delimiter = plan.proposals.find((proposal) => proposal.strategy === 'delimiter');
    expect(delimiter?.entries).toEqual([
      'likes tea',
      'uses vim\n\n# Vendor Master\nAcme: net 30\n\n# Standing Orders\nship on Fridays',
    ]);
    const confirmed = ['likes tea', 'uses vim', '# Vendor Master\nAcme: net 30', '# Standing Orders\nship on Fridays'];
    const result = await memory.adopt(temp.dir, 'memory', plan.basis, confirmed);
    expect(result).toMatchObject({
      outcome: 'changed',
      message: expect.stringContaining('Adopted 4 entries.') as string,
    });
    expect(await readFile(file, 'utf8')).toBe(serializeEntries(confirmed));
    const [original] = result.preserved;
    expect(original?.reason).toBe('adopted-original');
    expect(await readFile(original?.backup ?? '', 'utf8')).toBe(drifted);
    expect((await memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'Standing' })).outcome).toBe(
      'changed',
    );
  });

  it('refuses when the file changed after the proposal, and checks the limit before writing', async () => {
    await writeFile(file, drifted);
    const plan = await memory.proposeAdoption(temp.dir, 'memory');
    await writeFile(file, `${drifted}one more line\n`);
    const stale = await rejection(memory.adopt(temp.dir, 'memory', plan.basis, ['x']));
    expect(stale.code).toBe('conflict');
    expect(stale.message).toContain('Propose again');
    const fresh = await memory.proposeAdoption(temp.dir, 'memory');
    const tooBig = await rejection(memory.adopt(temp.dir, 'memory', fresh.basis, ['a'.repeat(1500), 'b'.repeat(1500)]));
    expect(tooBig.code).toBe('limit_exceeded');
    expect(await readFile(file, 'utf8')).toBe(`${drifted}one more line\n`);
    expect(await backupsIn(temp.dir)).toEqual([]);
  });
});
