import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { makeTempDir } from '../test-support/temp-dir';
import { FileLock, runOutsideFileLocks } from './file-lock';
import type { LockHolder } from './lock-holder';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'file-lock.child.ts');

function startChild(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

function exited(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
}

function printed(proc: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes(text)) resolve();
    });
    proc.on('exit', () => reject(new Error(`child exited before printing ${text}`)));
  });
}

/** The pid of a process that has exited (so is certainly not running). */
async function deadPid(): Promise<number> {
  const proc = spawn(process.execPath, ['-e', '0']);
  await exited(proc);
  return proc.pid ?? 999_999;
}

/** Checks that enter/exit lines never interleave: at most one holder at a time. */
function expectNoOverlap(log: string): void {
  let inside: string | undefined;
  for (const line of log.trim().split('\n')) {
    const [event, pid] = line.split(' ');
    if (event === 'enter') {
      expect(inside, `pid ${pid} entered while ${inside} held the lock`).toBeUndefined();
      inside = pid;
    } else {
      expect(inside).toBe(pid);
      inside = undefined;
    }
  }
}

describe('FileLock', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-lock-'));
  });
  afterEach(async () => {
    for (const proc of children.splice(0)) proc.kill('SIGKILL');
    await remove();
  });

  it('runs holders one at a time in this process, and lets a holder re-enter', async () => {
    const lockPath = path.join(dir, 'a.lock');
    const first = new FileLock({ path: lockPath, resource: 'r' });
    const second = new FileLock({ path: lockPath, resource: 'r' });
    const events: string[] = [];
    const work = (lock: FileLock, name: string) =>
      lock.withLock(async () => {
        events.push(`in ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        // Re-entering from inside the holder must not deadlock.
        await lock.withLock(() => Promise.resolve(events.push(`nested ${name}`)));
        expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
        events.push(`out ${name}`);
      });
    await Promise.all([work(first, 'a'), work(second, 'b'), work(first, 'c')]);
    expect(events).toEqual(['in a', 'nested a', 'out a', 'in b', 'nested b', 'out b', 'in c', 'nested c', 'out c']);
    expect(existsSync(lockPath)).toBe(false);
  });

  it('is not held by work that a holder started and that runs after the release: that work takes the lock anew', async () => {
    const lockPath = path.join(dir, 'stale.lock');
    const lock = new FileLock({ path: lockPath, resource: 'r' });
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let later: Promise<{ isHeld: boolean; holder: unknown }> | undefined;
    let isHeldOutside: boolean | undefined;
    await lock.withLock(async () => {
      // Started under the lock, run after it: the async context still carries the released hold.
      later = released.then(async () => ({
        isHeld: lock.isHeldHere(),
        holder: await lock.withLock(() => Promise.resolve(JSON.parse(readFileSync(lockPath, 'utf8')) as unknown)),
      }));
      isHeldOutside = runOutsideFileLocks(() => lock.isHeldHere());
      expect(lock.isHeldHere()).toBe(true);
      await Promise.resolve();
    });
    expect(isHeldOutside).toBe(false);
    expect(existsSync(lockPath)).toBe(false);
    release();
    expect(await later).toMatchObject({ isHeld: false, holder: { pid: process.pid } });
    expect(existsSync(lockPath)).toBe(false);
  });

  it('gives one process at a time the lock: no lost updates across processes', async () => {
    const lockPath = path.join(dir, 'b.lock');
    const counter = path.join(dir, 'counter');
    const log = path.join(dir, 'log');
    const procs = [0, 1, 2].map(() => startChild(['count', lockPath, counter, log, '25']));
    children.push(...procs);
    expect(await Promise.all(procs.map(exited))).toEqual([0, 0, 0]);
    expect(readFileSync(counter, 'utf8')).toBe('75');
    expectNoOverlap(readFileSync(log, 'utf8'));
  });

  it('takes over the lock of a holder killed with SIGKILL, and reports it', async () => {
    const lockPath = path.join(dir, 'c.lock');
    const holder = startChild(['hold', lockPath]);
    children.push(holder);
    await printed(holder, 'held');
    holder.kill('SIGKILL');
    await exited(holder);
    const takeovers: Array<{ abandoned: LockHolder | undefined; reason: string }> = [];
    const lock = new FileLock({
      path: lockPath,
      resource: 'r',
      onTakeover: (abandoned, reason) => Promise.resolve(void takeovers.push({ abandoned, reason })),
    });
    await lock.withLock(() => Promise.resolve());
    expect(takeovers).toHaveLength(1);
    expect(takeovers[0]?.abandoned?.pid).toBe(holder.pid);
    expect(takeovers[0]?.reason).toContain('no longer running');
  });

  it('fails with busy, naming the holder, while a live process keeps the lock', async () => {
    const lockPath = path.join(dir, 'd.lock');
    const holder = startChild(['hold', lockPath]);
    children.push(holder);
    await printed(holder, 'held');
    const lock = new FileLock({ path: lockPath, resource: 'the checkpoint store', timeoutMs: 200 });
    const error = await lock.withLock(() => Promise.resolve()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('busy');
    expect((error as AppError).message).toContain(`process ${holder.pid}`);
    expect((error as AppError).message).toContain(lockPath);
  });

  it('fails with an AppError naming the lock file and the resource when the lock file cannot be created', async () => {
    writeFileSync(path.join(dir, 'not-a-folder'), '');
    const lockPath = path.join(dir, 'not-a-folder', 'f.lock');
    const lock = new FileLock({ path: lockPath, resource: 'the checkpoint store' });
    const error = await lock.withLock(() => Promise.resolve()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toContain(
      `Could not create the lock file for the checkpoint store at ${lockPath}`,
    );
  });

  it('takes over a damaged lock file and one that stopped being refreshed', async () => {
    const lockPath = path.join(dir, 'e.lock');
    const old = new Date(Date.now() - 60_000);
    writeFileSync(lockPath, '');
    utimesSync(lockPath, old, old);
    const lock = new FileLock({ path: lockPath, resource: 'r' });
    await lock.withLock(() => Promise.resolve());
    // A live pid (ours) with another token, silent for a minute: a reused pid or another host.
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: process.pid, hostname: 'elsewhere', token: 'x', acquiredAt: old.toISOString() }),
    );
    utimesSync(lockPath, old, old);
    await lock.withLock(() => Promise.resolve());
    expect(existsSync(lockPath)).toBe(false);
  });

  it('lets exactly one of several processes take over an abandoned lock at a time', async () => {
    const lockPath = path.join(dir, 'f.lock');
    const counter = path.join(dir, 'counter');
    const log = path.join(dir, 'log');
    writeFileSync(
      lockPath,
      JSON.stringify({
        pid: await deadPid(),
        hostname: (await import('node:os')).hostname(),
        token: 't',
        acquiredAt: new Date().toISOString(),
      }),
    );
    const procs = [0, 1, 2, 3].map(() => startChild(['count', lockPath, counter, log, '5']));
    children.push(...procs);
    expect(await Promise.all(procs.map(exited))).toEqual([0, 0, 0, 0]);
    expect(readFileSync(counter, 'utf8')).toBe('20');
    expectNoOverlap(readFileSync(log, 'utf8'));
  });

  it('notices when its lock file was replaced by someone else', async () => {
    const lockPath = path.join(dir, 'g.lock');
    const lock = new FileLock({ path: lockPath, resource: 'r' });
    await lock.withLock(async () => {
      await lock.assertHeld();
      writeFileSync(lockPath, JSON.stringify({ pid: 1, hostname: 'h', token: 'other', acquiredAt: '' }));
      await expect(lock.assertHeld()).rejects.toMatchObject({ code: 'conflict' });
    });
    // The release left the other holder's file alone.
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ token: 'other' });
  });
  // Where start times cannot be read (macOS, Windows), a silent holder is taken over: its pid may have been reused.
  it.runIf(process.platform === 'linux')(
    'never takes over a live holder on this host, however long it has been stopped (SIGSTOP)',
    async () => {
      const lockPath = path.join(dir, 'h.lock');
      const holder = startChild(['hold', lockPath]);
      children.push(holder);
      await printed(holder, 'held');
      holder.kill('SIGSTOP');
      try {
        // Silent for ten minutes as far as its file says: a suspended laptop, a debugger, SIGSTOP.
        const old = new Date(Date.now() - 600_000);
        utimesSync(lockPath, old, old);
        const takeovers: string[] = [];
        const lock = new FileLock({
          path: lockPath,
          resource: 'r',
          timeoutMs: 300,
          staleMs: 50,
          onTakeover: (_abandoned, reason) => Promise.resolve(void takeovers.push(reason)),
        });
        const error = await lock.withLock(() => Promise.resolve()).catch((caught: unknown) => caught);
        expect((error as AppError).code).toBe('busy');
        expect(takeovers).toEqual([]);
        expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: holder.pid });
      } finally {
        holder.kill('SIGCONT');
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'stops waiting for a holder on this host that is stopped (Ctrl+Z), and says how to resume it',
    { timeout: 30_000 },
    async () => {
      const lockPath = path.join(dir, 'stopped.lock');
      const holder = startChild(['hold', lockPath]);
      children.push(holder);
      await printed(holder, 'held');
      holder.kill('SIGSTOP');
      try {
        // Without the check this waits out its full minute.
        const lock = new FileLock({ path: lockPath, resource: 'the test resource', timeoutMs: 60_000 });
        const error = (await lock.withLock(() => Promise.resolve()).catch((caught: unknown) => caught)) as AppError;
        expect(error.code).toBe('busy');
        expect(error.message).toContain(`process ${holder.pid ?? ''} on ${os.hostname()}`);
        expect(error.message).toContain('which is stopped (suspended with Ctrl+Z or SIGSTOP)');
        expect(error.message).toContain(`kill -CONT ${holder.pid ?? ''}`);
        expect(error.details).toMatchObject({ isHolderStopped: true, holder: { pid: holder.pid } });
        // Its lock is left alone.
        expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: holder.pid });
      } finally {
        holder.kill('SIGCONT');
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose pid now names another process (its start time differs)',
    async () => {
      const lockPath = path.join(dir, 'i.lock');
      // Our own pid is alive; the recorded start time is not ours, so the pid was reused.
      writeFileSync(
        lockPath,
        JSON.stringify({
          pid: process.pid,
          hostname: os.hostname(),
          token: 'reused',
          acquiredAt: new Date().toISOString(),
          startedAt: 'another-boot:1',
        }),
      );
      const reasons: string[] = [];
      const lock = new FileLock({
        path: lockPath,
        resource: 'r',
        timeoutMs: 2_000,
        onTakeover: (_abandoned, reason) => Promise.resolve(void reasons.push(reason)),
      });
      await lock.withLock(() => Promise.resolve());
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toContain('names another process');
    },
  );

  it('takes over an abandoned lock whose first taker died mid-takeover (its claim is taken over too), leaving nothing beside the lock', async () => {
    const lockPath = path.join(dir, 'k.lock');
    const record = async (token: string): Promise<string> =>
      JSON.stringify({ pid: await deadPid(), hostname: os.hostname(), token, acquiredAt: new Date().toISOString() });
    writeFileSync(lockPath, await record('dead'));
    writeFileSync(`${lockPath}.takeover-dead`, await record('dead-taker'));
    const reasons: string[] = [];
    const lock = new FileLock({
      path: lockPath,
      resource: 'r',
      timeoutMs: 5_000,
      onTakeover: (_abandoned, reason) => Promise.resolve(void reasons.push(reason)),
    });
    await lock.withLock(() => Promise.resolve());
    expect(reasons).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => name.startsWith('k.lock'))).toEqual([]);
  });

  it(
    'lets exactly one of several processes racing for an abandoned lock take it over, and never two hold it',
    { timeout: 60_000 },
    async () => {
      const lockPath = path.join(dir, 'j.lock');
      const log = path.join(dir, 'log');
      writeFileSync(
        lockPath,
        JSON.stringify({
          pid: await deadPid(),
          hostname: os.hostname(),
          token: 'dead',
          acquiredAt: new Date().toISOString(),
        }),
      );
      const procs = [0, 1, 2, 3, 4, 5].map(() => startChild(['race', lockPath, log]));
      children.push(...procs);
      await Promise.all(procs.map((proc) => printed(proc, 'ready')));
      // All start at once: each sees the dead holder and tries to take over.
      for (const proc of procs) proc.stdin?.write('go\n');
      expect(await Promise.all(procs.map(exited))).toEqual([0, 0, 0, 0, 0, 0]);
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      expect(lines.filter((line) => line.startsWith('takeover'))).toHaveLength(1);
      const enterExit = lines.filter((line) => !line.startsWith('takeover'));
      expect(enterExit.filter((line) => line.startsWith('enter'))).toHaveLength(6);
      expectNoOverlap(enterExit.join('\n'));
      // No claim or temp file is left beside the lock.
      expect(readdirSync(dir).filter((name) => name.startsWith('j.lock'))).toEqual([]);
    },
  );
  it('tries the lock without waiting: holds it when free (any FileLock of the path then finds it held), else reports it busy', async () => {
    const lockPath = path.join(dir, 'k.lock');
    const early = new FileLock({ path: lockPath, resource: 'r' });
    const later = new FileLock({ path: lockPath, resource: 'r' });
    const outcome = await early.tryWithLock(async () => {
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
      // Another FileLock of the path, in the holding context, runs under this hold and can prove it.
      await later.withLock(async () => {
        expect(later.isHeldHere()).toBe(true);
        await later.assertHeld();
      });
      // Outside this context, a try finds the lock taken (no waiting).
      expect(await runOutsideFileLocks(() => later.tryWithLock(() => Promise.resolve('ran')))).toEqual({
        kind: 'busy',
      });
      return 'done';
    });
    expect(outcome).toEqual({ kind: 'held', value: 'done' });
    expect(existsSync(lockPath)).toBe(false);
    await expect(later.assertHeld()).rejects.toMatchObject({ code: 'conflict' });

    const holder = startChild(['hold', lockPath]);
    children.push(holder);
    await printed(holder, 'held');
    expect(await early.tryWithLock(() => Promise.resolve('ran'))).toEqual({ kind: 'busy' });
    holder.kill('SIGKILL');
    await exited(holder);
    // Left by a holder that died: still busy for a try (a takeover and its repair are withLock's).
    expect(await early.tryWithLock(() => Promise.resolve('ran'))).toEqual({ kind: 'busy' });
    expect(existsSync(lockPath)).toBe(true);
  });
});
