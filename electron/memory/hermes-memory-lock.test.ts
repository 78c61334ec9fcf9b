import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryMutationResult } from '../../shared/contract/memory-contract';
import { writeFileAtomic } from '../files/atomic-write';
import { createConfiguredMemoryService } from './configured-memory-service';
import { memoryDirectoryId, type ResolvedMemoryDirectory } from './memory-config';
import { openMemoryFile } from './memory-file';
import { LateWriteWatch } from './memory-late-writes';
import { withMemoryLock } from './memory-lock';
import { createMemoryService, type MemoryService } from './memory-service';
import { ChangeRecorder } from './test-support/change-recorder';
import { backupsIn } from './test-support/memory-fixtures';
import { makeTempDir } from '../test-support/temp-dir';
import { startHermesLock } from '../hermes/test-support/hermes-lock-process';
import { recordingLogger, type RecordingLogger } from '../hermes/test-support/recording-logger';

/** Vigil and a Hermes process changing the same memory file: they take turns, and nothing is lost. */

let base: string;
let remove: () => Promise<void>;
let memory: MemoryService | undefined;
let logger: RecordingLogger;

async function serviceFor(source: ResolvedMemoryDirectory['source']): Promise<MemoryService> {
  logger = recordingLogger();
  return createMemoryService({
    directories: [
      {
        id: memoryDirectoryId(base),
        path: base,
        label: 'Hermes memories',
        source,
        limits: { memory: 2200, user: 1375 },
      },
    ],
    logger,
  });
}

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-memory-'));
});
afterEach(async () => {
  await memory?.dispose();
  memory = undefined;
  await remove();
});

/** A promise the test resolves when it chooses. */
function gate(): { readonly opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("Hermes's memory lock", () => {
  it('Vigil waits while Hermes does a slow read-modify-write under its flock, and both entries survive', async () => {
    const file = path.join(base, 'MEMORY.md');
    writeFileSync(file, 'the user prefers tabs');
    memory = await serviceFor('hermes');
    const hermes = startHermesLock('rmw', `${file}.lock`, file, 'the project uses pnpm');
    expect(await hermes.next()).toBe('read');

    let isDone = false;
    const vigil = memory
      .mutate(base, 'memory', { action: 'add', content: 'tests run with vitest' })
      .finally(() => (isDone = true));
    await logger.waitFor('waiting for MEMORY.md.lock');
    expect(isDone).toBe(false);

    hermes.send('go');
    expect(await hermes.next()).toBe('written');
    const result = await vigil;
    expect(result.outcome).toBe('changed');
    expect(readFileSync(file, 'utf8')).toBe(
      'the user prefers tabs\n§\nthe project uses pnpm\n§\ntests run with vitest\n',
    );
  });

  it('is taken by a mutation that a change listener starts, after the change that notified it released it', async () => {
    const file = path.join(base, 'MEMORY.md');
    const service = (memory = await serviceFor('hermes'));
    const later = gate();
    let second: Promise<MemoryMutationResult> | undefined;
    service.onChange(() => {
      second ??= later.opened.then(() =>
        service.mutate(base, 'memory', { action: 'add', content: 'added by a listener' }),
      );
    });
    await service.mutate(base, 'memory', { action: 'add', content: 'the first entry' });
    const hermes = startHermesLock('hold', `${file}.lock`);
    expect(await hermes.next()).toBe('locked');
    later.open();
    const outcome = await Promise.race([
      (second ?? Promise.reject(new Error('no change was reported'))).then(() => 'written while Hermes held its lock'),
      logger.waitFor('waiting for MEMORY.md.lock').then(() => 'waited for Hermes'),
    ]);
    expect(outcome).toBe('waited for Hermes');
    hermes.send('release');
    expect((await second)?.outcome).toBe('changed');
    expect(readFileSync(file, 'utf8')).toBe('the first entry\n§\nadded by a listener\n');
  });

  it('is taken by the rescue of a late write, which runs after the change that started it released it', async () => {
    const file = path.join(base, 'MEMORY.md');
    writeFileSync(file, 'one');
    logger = recordingLogger();
    const problems: string[] = [];
    const grace = gate();
    const lateWrites = new LateWriteWatch({
      logger,
      reportProblem: (message) => problems.push(message),
      grace: () => grace.opened,
    });
    // `cat >> MEMORY.md` that opened the file before Vigil's replace, and writes after it.
    const stale = await open(file, 'a');
    await withMemoryLock(
      file,
      async () => {
        const opened = await openMemoryFile(file);
        await writeFileAtomic(file, 'one\n§\ntwo');
        lateWrites.watch(file, opened, { hermesSidecar: 'create' });
      },
      { hermesSidecar: 'create' },
    );
    const hermes = startHermesLock('hold', `${file}.lock`);
    expect(await hermes.next()).toBe('locked');
    await stale.write('\nlate');
    await stale.close();
    grace.open();
    const outcome = await Promise.race([
      lateWrites.idle().then(() => 'rescued while Hermes held its lock'),
      logger.waitFor('waiting for MEMORY.md.lock').then(() => 'waited for Hermes'),
    ]);
    expect(outcome).toBe('waited for Hermes');
    hermes.send('release');
    await lateWrites.idle();
    expect(problems.join('\n')).toContain('just after Vigil replaced it');
    expect((await backupsIn(base)).map((name) => readFileSync(path.join(base, name), 'utf8'))).toEqual(['one\nlate']);
  });

  it("in Hermes's own folder creates the missing lock file (0600) so Hermes locks the same one; elsewhere leaves none", async () => {
    memory = await serviceFor('hermes');
    await memory.mutate(base, 'user', { action: 'add', content: 'name: Ada' });
    expect(statSync(path.join(base, 'USER.md.lock')).mode & 0o777).toBe(0o600);
    await memory.dispose();

    memory = await serviceFor('config');
    await memory.mutate(base, 'memory', { action: 'add', content: 'a fact' });
    expect(existsSync(path.join(base, 'MEMORY.md.lock'))).toBe(false);
  });

  it("manages Hermes's memories folder from the moment Hermes creates it, after Vigil started", async () => {
    const hermesMemories = path.join(base, 'hermes', 'memories');
    logger = recordingLogger();
    const service = (memory = await createConfiguredMemoryService({
      paths: { config: path.join(base, 'vigil', 'config.json'), memories: path.join(base, 'vigil', 'memories') },
      env: { HERMES_HOME: path.join(base, 'hermes') },
      logger,
      watch: { appearPollMs: 20 },
    }));
    expect((await service.directories()).map((directory) => directory.source)).toEqual(['vigil']);
    await expect(service.read(hermesMemories, 'memory')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('does not exist yet') as unknown,
    });
    const recorder = new ChangeRecorder(service);
    try {
      mkdirSync(hermesMemories, { recursive: true });
      writeFileSync(path.join(hermesMemories, 'MEMORY.md'), 'written by Hermes');
      const created = await recorder.waitFor("Hermes's first memory", (change) => change.dir === hermesMemories);
      expect(created).toMatchObject({ source: 'external', current: { entries: ['written by Hermes'] } });
      expect(await service.directories()).toContainEqual(
        expect.objectContaining({ path: hermesMemories, source: 'hermes', exists: true, isWatched: true }),
      );
      appendFileSync(path.join(hermesMemories, 'MEMORY.md'), '\n§\nand another');
      await recorder.waitFor(
        'the next edit',
        (change) => change.dir === hermesMemories && change.current.entries.length === 2,
      );
      await service.mutate(hermesMemories, 'memory', { action: 'add', content: 'added by Vigil' });
      expect(statSync(path.join(hermesMemories, 'MEMORY.md.lock')).mode & 0o777).toBe(0o600);
    } finally {
      recorder.dispose();
    }
  });

  it("takes Hermes's flock in a configured folder that is Hermes's memories folder, before any MEMORY.md.lock exists", async () => {
    const hermesMemories = path.join(base, 'hermes', 'memories');
    mkdirSync(hermesMemories, { recursive: true });
    const config = path.join(base, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        memory: { includeDefaults: false, directories: [{ path: hermesMemories, label: 'agent memory' }] },
      }),
    );
    const service = (memory = await createConfiguredMemoryService({
      paths: { config, memories: path.join(base, 'vigil-memories') },
      env: { HERMES_HOME: path.join(base, 'hermes') },
      logger: recordingLogger(),
    }));
    expect((await service.directories()).map((directory) => [directory.source, directory.label])).toEqual([
      ['hermes', 'agent memory'],
    ]);
    await service.mutate(hermesMemories, 'memory', { action: 'add', content: 'a fact' });
    expect(statSync(path.join(hermesMemories, 'MEMORY.md.lock')).mode & 0o777).toBe(0o600);
  });

  it('refuses to change memory through a symlinked Hermes lock file, leaving the file untouched', async () => {
    const file = path.join(base, 'MEMORY.md');
    writeFileSync(file, 'one entry');
    const victim = path.join(base, 'victim');
    writeFileSync(victim, 'not a lock\n');
    symlinkSync(victim, `${file}.lock`);
    memory = await serviceFor('config');
    await expect(memory.mutate(base, 'memory', { action: 'add', content: 'two' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('symbolic link') as unknown,
    });
    expect(readFileSync(file, 'utf8')).toBe('one entry');
    expect(readFileSync(victim, 'utf8')).toBe('not a lock\n');
  });
});
