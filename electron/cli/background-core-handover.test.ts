import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeEvents } from '../hooks/test-support/recorded-events';
import { isProcessGone } from '../lib/process/stop-process';
import { spawnVigil, withBackgroundCore } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { makeCoreWorkspace, type CoreWorkspace } from './test-support/background-core-fixture';

describe('the background core and the cores that take its place', () => {
  let remove: () => Promise<void>;
  let w: CoreWorkspace;

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-autocore-handover-');
    remove = temp.remove;
    w = await makeCoreWorkspace(path.join(temp.dir, 'w'));
  });
  afterEach(async () => {
    await w.stopCores();
    expect(await w.liveCores()).toEqual([]);
    await remove();
  });

  it('a hook call with no core starts one and is answered through it', { timeout: 300_000 }, async () => {
    const session = { sessionId: 'a1b2c3d4-0000-4000-8000-00000000aaaa', cwd: w.project, transcriptPath: '' };
    const event = claudeCodeEvents.preTool(
      session,
      'Write',
      { file_path: path.join(w.project, 'new.txt'), content: 'x' },
      'toolu_1',
    );
    const run = await w.vigil(['hook', 'claude-code'], JSON.stringify(event));
    expect([run.code, run.stderr]).toEqual([0, '']);
    const info = await w.serveJson();
    expect(info?.background).toBe(true);
    // No line on stderr: the event was relayed (every fallback says so). The checkpoint before the write is in the core's store.
    const status = await w.vigil(['checkpoints', 'status']);
    expect(status.stdout).toContain(w.project);
    expect(status.stdout).toContain('watched (each checkpoint waits for the watcher to catch up)');
  });

  it(
    '`vigil serve` stops the background core and takes its place; commands then relay to it',
    { timeout: 300_000 },
    async () => {
      expect((await w.vigil(['checkpoint', w.project])).code).toBe(0);
      const background = await w.serveJson();
      expect(background?.background).toBe(true);

      const serve = spawnVigil(['serve', '--port', '0'], { env: withBackgroundCore(w.env), cwd: w.base });
      try {
        await new Promise<void>((resolve, reject) => {
          let output = '';
          serve.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            output += chunk;
            if (/^url: /m.test(output)) resolve();
          });
          serve.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)}): ${output}`)));
        });
        expect(await isProcessGone(background?.pid ?? 0)).toBe(true);
        const info = await w.serveJson();
        expect(info?.pid).toBe(serve.pid);
        expect(info?.background).toBeUndefined();

        await appendFile(path.join(w.project, 'src/a.txt'), 'more\n');
        const relayed = await w.vigil(['checkpoint', w.project]);
        expect([relayed.code, relayed.stderr]).toEqual([0, '']);
        expect(await w.liveCores()).toEqual([]);
        const stop = await w.vigil(['core', 'stop']);
        expect(stop.code).toBe(1);
        expect(stop.stderr).toContain(
          `pid ${String(serve.pid)} is the desktop app or "vigil serve", not a background core`,
        );
        expect(await isProcessGone(serve.pid ?? 0)).toBe(false);
      } finally {
        const exited = new Promise((resolve) => serve.once('exit', resolve));
        serve.kill('SIGTERM');
        await exited;
      }
    },
  );
});
