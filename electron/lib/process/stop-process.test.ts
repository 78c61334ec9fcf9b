import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from './is-process-alive';
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
