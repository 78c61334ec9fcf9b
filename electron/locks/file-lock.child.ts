import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileLock } from './file-lock';

/**
 * A lock contender for file-lock.test.ts, run as a real child process:
 *   count LOCK COUNTER LOG N   increments COUNTER N times under the lock, logging enter/exit to LOG
 *   hold LOCK                  takes the lock, prints "held", and keeps it until killed
 *   race LOCK LOG              prints "ready", waits for a line on stdin, then takes the lock once,
 *                              logging "takeover <pid>" if it took it over, and enter/exit
 */
async function main(): Promise<void> {
  const [mode, lockPath, counterPath, logPath, times] = process.argv.slice(2);
  if (lockPath === undefined) throw new Error('usage: count|hold|race LOCK …');
  if (mode === 'race') {
    const log = counterPath;
    if (log === undefined) throw new Error('race needs LOG');
    const lock = new FileLock({
      path: lockPath,
      resource: 'the test resource',
      timeoutMs: 30_000,
      onTakeover: () => appendFile(log, `takeover ${process.pid}\n`),
    });
    process.stdout.write('ready\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    await lock.withLock(async () => {
      await appendFile(log, `enter ${process.pid}\n`);
      await sleep(Math.random() * 3);
      await appendFile(log, `exit ${process.pid}\n`);
    });
    return;
  }
  const lock = new FileLock({ path: lockPath, resource: 'the test resource', timeoutMs: 30_000 });
  if (mode === 'hold') {
    await lock.withLock(async () => {
      process.stdout.write('held\n');
      // Keep the process (and the lock) alive until the test kills it.
      await new Promise(() => setInterval(() => undefined, 1_000));
    });
    return;
  }
  if (counterPath === undefined || logPath === undefined) throw new Error('count needs COUNTER and LOG');
  for (let index = 0; index < Number(times ?? '10'); index += 1) {
    await lock.withLock(async () => {
      await appendFile(logPath, `enter ${process.pid}\n`);
      const value = Number(await readFile(counterPath, 'utf8').catch(() => '0'));
      await sleep(Math.random() * 3);
      await writeFile(counterPath, String(value + 1));
      await appendFile(logPath, `exit ${process.pid}\n`);
    });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
