import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryDirectoryId, type ResolvedMemoryDirectory } from '../memory/memory-config';
import { createMemoryService, type MemoryService } from '../memory/memory-service';
import { makeTempDir } from '../test-support/temp-dir';
import { startHermesLock } from './test-support/hermes-lock-process';
import { recordingLogger, type RecordingLogger } from './test-support/recording-logger';

/** Vigil and a Hermes process changing the same memory file: they take turns, and nothing is lost. */

let base: string;
let remove: () => Promise<void>;
let memory: MemoryService;
let logger: RecordingLogger;

async function serviceFor(source: ResolvedMemoryDirectory['source']): Promise<MemoryService> {
  logger = recordingLogger();
  return createMemoryService({
    directories: [{ id: memoryDirectoryId(base), path: base, label: 'Hermes memories', source, limits: { memory: 2200, user: 1375 } }],
    logger,
  });
}

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-memory-'));
});
afterEach(async () => {
  await memory.dispose();
  await remove();
});

describe("Hermes's memory lock", () => {
  it('Vigil waits while Hermes does a slow read-modify-write under its flock, and both entries survive', async () => {
    const file = path.join(base, 'MEMORY.md');
    writeFileSync(file, 'the user prefers tabs');
    memory = await serviceFor('hermes');
    const hermes = startHermesLock('rmw', `${file}.lock`, file, 'the project uses pnpm');
    expect(await hermes.next()).toBe('read');

    let isDone = false;
    const vigil = memory.mutate(base, 'memory', { action: 'add', content: 'tests run with vitest' }).finally(() => (isDone = true));
    await logger.waitFor('waiting for MEMORY.md.lock');
    expect(isDone).toBe(false);

    hermes.send('go');
    expect(await hermes.next()).toBe('written');
    const result = await vigil;
    expect(result.outcome).toBe('changed');
    expect(readFileSync(file, 'utf8').split('\n§\n')).toEqual(['the user prefers tabs', 'the project uses pnpm', 'tests run with vitest']);
  });

  it('in Hermes\'s own folder creates the missing lock file (0600) so Hermes locks the same one; elsewhere leaves none', async () => {
    memory = await serviceFor('hermes');
    await memory.mutate(base, 'user', { action: 'add', content: 'name: Ada' });
    expect(statSync(path.join(base, 'USER.md.lock')).mode & 0o777).toBe(0o600);
    await memory.dispose();

    memory = await serviceFor('config');
    await memory.mutate(base, 'memory', { action: 'add', content: 'a fact' });
    expect(existsSync(path.join(base, 'MEMORY.md.lock'))).toBe(false);
  });

  it('refuses to change memory through a symlinked Hermes lock file, leaving the file untouched', async () => {
    const file = path.join(base, 'MEMORY.md');
    writeFileSync(file, 'one entry');
    const victim = path.join(base, 'victim');
    writeFileSync(victim, 'not a lock\n');
    symlinkSync(victim, `${file}.lock`);
    memory = await serviceFor('config');
    await expect(memory.mutate(base, 'memory', { action: 'add', content: 'two' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('symbolic link') as unknown });
    expect(readFileSync(file, 'utf8')).toBe('one entry');
    expect(readFileSync(victim, 'utf8')).toBe('not a lock\n');
  });
});
