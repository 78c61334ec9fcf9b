import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { repoRoot, tsxLoader } from '../test-support/run-vigil';
import { findFlockHelperProgram } from './flock-helper-program';
import { FlockLocks } from './flock-locks';
import { startHermesLock } from './test-support/hermes-lock-process';
import { recordingLogger } from './test-support/recording-logger';

let base: string;
let remove: () => Promise<void>;
let lockPath: string;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-flock-'));
  lockPath = path.join(base, 'MEMORY.md.lock');
});
afterEach(async () => {
  await remove();
});

describe.each(['perl', 'flock'] as const)('flock through the %s helper', (kind) => {
  let locks: FlockLocks;
  beforeEach(async () => {
    locks = new FlockLocks({ kinds: [kind] });
    expect((await locks.program())?.kind).toBe(kind);
  });
  afterEach(async () => {
    await locks.dispose();
  });

  it("waits while Hermes holds the lock, takes it when Hermes lets go, and Hermes then sees Vigil's lock", async () => {
    const hermes = startHermesLock('hold', lockPath);
    expect(await hermes.next()).toBe('locked');
    let signalWaiting = (): void => undefined;
    const waiting = new Promise<void>((resolve) => (signalWaiting = resolve));
    let isLocked = false;
    const acquired = locks.acquire(lockPath, { timeoutMs: 60_000, onWaiting: () => signalWaiting() });
    void acquired.then(() => (isLocked = true));
    await waiting;
    expect(isLocked).toBe(false);
    hermes.send('release');
    const flock = await acquired;
    expect(flock.isLocked).toBe(true);
    await hermes.exited;

    const probe = startHermesLock('try', lockPath);
    expect(await probe.next()).toBe('busy');
    await flock.release();
    const again = startHermesLock('try', lockPath);
    expect(await again.next()).toBe('free');
  });

  it('never locks through a symlink, and creates a missing lock file with mode 0600', async () => {
    const victim = path.join(base, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, lockPath);
    await expect(locks.acquire(lockPath, { timeoutMs: 10_000 })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('symbolic link') as unknown,
    });
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(lstatSync(lockPath).isSymbolicLink()).toBe(true);

    const fresh = path.join(base, 'USER.md.lock');
    const held = await locks.acquire(fresh, { timeoutMs: 10_000 });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    await held.release();
  });

  it('fails with busy when Hermes keeps the lock past the timeout, and locks normally afterwards', async () => {
    const hermes = startHermesLock('hold', lockPath);
    expect(await hermes.next()).toBe('locked');
    await expect(locks.acquire(lockPath, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'busy' });
    hermes.send('release');
    await hermes.exited;
    const held = await locks.acquire(lockPath, { timeoutMs: 10_000 });
    const probe = startHermesLock('try', lockPath);
    expect(await probe.next()).toBe('busy');
    await held.release();
  });
});

describe('the lock outlives no crash', () => {
  it('a Vigil process killed with SIGKILL while holding the lock releases it', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--import',
        tsxLoader,
        path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-support', 'hold-flock.ts'),
        lockPath,
      ],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: holder.stdout });
    await new Promise<void>((resolve) => lines.once('line', () => resolve()));
    const probe = startHermesLock('try', lockPath);
    expect(await probe.next()).toBe('busy');
    holder.kill('SIGKILL');
    const hermes = startHermesLock('wait', lockPath);
    expect(await hermes.next()).toBe('locked');
    expect(await hermes.exited).toBe(0);
  });
});

describe('where no flock can be taken', () => {
  it('on Windows takes none and says so once, as a warning', async () => {
    const logger = recordingLogger();
    const locks = new FlockLocks({ platform: 'win32' });
    expect(await findFlockHelperProgram(process.env, 'win32')).toBeUndefined();
    for (let round = 0; round < 2; round += 1) {
      const held = await locks.acquire(lockPath, { timeoutMs: 1_000, logger });
      expect(held.isLocked).toBe(false);
      await held.release();
    }
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('msvcrt') as unknown }),
    ]);
    expect(existsSync(lockPath)).toBe(false);
  });

  it('without perl or flock(1) on PATH says so once, as a warning', async () => {
    const logger = recordingLogger();
    const locks = new FlockLocks({ env: { PATH: base }, platform: 'linux' });
    expect((await locks.acquire(lockPath, { timeoutMs: 1_000, logger })).isLocked).toBe(false);
    expect(logger.lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: expect.stringContaining('neither perl nor flock(1)') as unknown,
      }),
    ]);
  });
});
