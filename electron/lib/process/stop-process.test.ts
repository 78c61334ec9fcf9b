import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from './is-process-alive';
import { processStart, processState } from './process-start-time';
import { isProcessGone } from './stop-process';

describe('isProcessGone', () => {
  it('is false for a running process and true for a pid nobody has', async () => {
    expect(await isProcessGone(process.pid)).toBe(false);
    expect(await isProcessGone(4_194_305)).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'is true for a zombie, which signal 0 still finds: a process that exited and that its parent never reaps (a core orphaned in a container)',
    async () => {
      // `sleep 0.05` is the child of a shell that then becomes `sleep 30`, which never waits for it.
      const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const pid = await new Promise<number>((resolve) =>
          parent.stdout.once('data', (data) => resolve(Number(String(data).trim()))),
        );
        await sleep(500);
        expect(isProcessAlive(pid)).toBe(true);
        expect(await isProcessGone(pid)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );
});

describe('processState', () => {
  it.runIf(process.platform === 'linux')(
    'tells a running process from a stopped one (Ctrl-Z, SIGSTOP) from /proc alone, and knows no pid nobody has',
    async () => {
      const child = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        const pid = child.pid ?? 0;
        expect(await processState(pid)).toEqual({ hasExited: false, isStopped: false });
        child.kill('SIGSTOP');
        for (let tries = 0; tries < 100 && (await processState(pid))?.isStopped !== true; tries += 1) await sleep(10);
        expect(await processState(pid)).toEqual({ hasExited: false, isStopped: true });
        expect((await processStart(pid))?.startedAt).toMatch(/^[\w-]+:\d+$/);
        expect(await processState(4_194_305)).toBeUndefined();
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});
