import { appendFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../lib/process/is-process-alive';
import { isProcessGone, waitForExit } from '../lib/process/stop-process';
import { runVigil, spawnVigil, withBackgroundCore } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { makeCoreWorkspace, type CoreWorkspace } from './test-support/background-core-fixture';

/** A pid no process has (above the kernel's default pid_max of 4,194,304). */
const deadPid = 4_194_305;

/** Each stderr line of a run. */
function lines(text: string): readonly string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** The pids that logged "background core serving" in the data folder's log. */
async function servingPids(workspace: CoreWorkspace): Promise<readonly number[]> {
  const log = await readFile(path.join(workspace.home, 'logs/vigil.log'), 'utf8').catch(() => '');
  return lines(log)
    .map((line) => JSON.parse(line) as { message?: string; pid?: number })
    .filter((entry) => entry.message === 'background core serving')
    .map((entry) => entry.pid ?? 0);
}

describe('a background core that commands start for themselves', () => {
  let remove: () => Promise<void>;
  let base: string;
  const workspaces: CoreWorkspace[] = [];

  async function workspace(name: string, core: Record<string, unknown> = {}): Promise<CoreWorkspace> {
    const made = await makeCoreWorkspace(path.join(base, name), core);
    workspaces.push(made);
    return made;
  }

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-autocore-');
    remove = temp.remove;
    base = temp.dir;
  });
  afterEach(async () => {
    for (const made of workspaces.splice(0)) {
      await made.stopCores();
      expect(await made.liveCores()).toEqual([]);
    }
    await remove();
  });

  it(
    'starts on the first command, takes the later ones (relayed: the folder is watched), shows in `vigil core status` and stops with `vigil core stop`',
    { timeout: 300_000 },
    async () => {
      const w = await workspace('first');
      const first = await w.vigil(['checkpoint', w.project]);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^Checkpoint [0-9a-f]{8} of .*: manual checkpoint \(2 files, \+3\/-0\)\.\n$/);
      const info = await w.serveJson();
      expect(info).toMatchObject({ background: true });
      expect(isProcessAlive(info?.pid ?? 0)).toBe(true);

      await appendFile(path.join(w.project, 'src/a.txt'), 'three\n');
      const second = await w.vigil(['checkpoint', w.project]);
      expect([second.code, second.stderr]).toEqual([0, '']);
      // A one-shot core walks the tree; only the resident core the call went to watches it.
      const status = await w.vigil(['checkpoints', 'status']);
      expect(status.stdout).toContain('watched (each checkpoint waits for the watcher to catch up)');
      expect((await w.serveJson())?.pid).toBe(info?.pid);
      expect(await w.liveCores()).toEqual([info?.pid]);

      expect((await w.vigil(['core', 'status'])).stdout).toContain(`A background core (pid ${String(info?.pid)}`);
      const stop = await w.vigil(['core', 'stop']);
      expect([stop.code, stop.stdout]).toEqual([
        0,
        `Stopped the background core (pid ${String(info?.pid)}) of ${w.home}.\n`,
      ]);
      expect(await isProcessGone(info?.pid ?? 0)).toBe(true);
      expect(await w.serveJson()).toBeUndefined();
      expect((await w.vigil(['core', 'status'])).stdout).toMatch(/^No core runs on /);
    },
  );

  it(
    '--local, VIGIL_NO_CORE=1 and core.autoStart false start nothing and work in-process',
    { timeout: 300_000 },
    async () => {
      const w = await workspace('off', { autoStart: false });
      const run = await w.vigil(['checkpoint', w.project]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const local = await workspace('local');
      expect((await local.vigil(['--local', 'checkpoint', local.project])).code).toBe(0);
      // childEnv's default: VIGIL_NO_CORE=1.
      const refused = await workspace('refused');
      expect((await runVigil(['checkpoint', refused.project], { env: refused.env })).code).toBe(0);
      expect(await refused.serveJson()).toBeUndefined();
      expect(await refused.liveCores()).toEqual([]);
      expect(await w.serveJson()).toBeUndefined();
      expect(await local.serveJson()).toBeUndefined();
      expect(await w.liveCores()).toEqual([]);
      expect(await local.liveCores()).toEqual([]);
    },
  );

  it(
    'of two commands starting one at once, and of two cores started at once, exactly one serves',
    { timeout: 300_000 },
    async () => {
      const w = await workspace('race');
      const runs = await Promise.all([w.vigil(['checkpoint', w.project]), w.vigil(['checkpoints', 'status'])]);
      expect(runs.map((run) => [run.code, run.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ]);
      const info = await w.serveJson();
      expect(await w.liveCores()).toEqual([info?.pid]);
      // The core logs that it serves just after it writes serve.json's url: wait for the line, not only the url.
      await expect.poll(() => servingPids(w), { timeout: 60_000 }).toEqual([info?.pid]);
      await w.stopCores();
      // Two `vigil core run` at once: one wins serve.json's claim, the other exits "busy" before building a core.
      const children = [0, 1].map(() => spawnVigil(['core', 'run'], { env: withBackgroundCore(w.env), cwd: w.home }));
      const outputs = children.map((child) => {
        let text = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        child.stdout.resume();
        return { child, text: () => text };
      });
      const loser = await Promise.race(
        outputs.map(
          (output) =>
            new Promise<(typeof outputs)[number]>((resolve) => output.child.once('exit', () => resolve(output))),
        ),
      );
      const winner = outputs.find((output) => output !== loser);
      expect(loser.child.exitCode).toBe(1);
      expect(loser.text()).toContain('already serves');
      expect(loser.text()).toContain('so this background core exits');
      await expect.poll(async () => (await w.serveJson())?.url ?? null, { timeout: 120_000 }).not.toBeNull();
      expect((await w.serveJson())?.pid).toBe(winner?.child.pid);
      await expect.poll(() => servingPids(w), { timeout: 60_000 }).toEqual([info?.pid, winner?.child.pid]);
    },
  );

  it('exits after core.idleMinutes without a client', { timeout: 300_000 }, async () => {
    const w = await workspace('idle', { idleMinutes: 0.05 });
    const run = await w.vigil(['checkpoint', w.project]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    // It may be gone already (3 s after its last client): its log says which pid served.
    const [pid] = await servingPids(w);
    expect(pid).toBeGreaterThan(0);
    expect(await waitForExit(pid ?? 0, 120_000)).toBe(true);
    expect(await w.serveJson()).toBeUndefined();
    const log = await readFile(path.join(w.home, 'logs/vigil.log'), 'utf8');
    expect(log).toMatch(new RegExp(`"pid":${String(pid)},"message":"background core stopping","reason":"idle"`));
  });

  it(
    'exits by itself when its serve.json is gone (its data folder deleted under it), saying why in its log',
    { timeout: 300_000 },
    async () => {
      const w = await workspace('displaced');
      const run = await w.vigil(['checkpoint', w.project]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const info = await w.serveJson();
      expect(info?.background).toBe(true);
      await rm(path.join(w.home, 'serve.json'));
      expect(await waitForExit(info?.pid ?? 0, 120_000)).toBe(true);
      const log = await readFile(path.join(w.home, 'logs/vigil.log'), 'utf8');
      expect(log).toContain(
        `"pid":${String(info?.pid)},"message":"background core stopping","reason":"${path.join(w.home, 'serve.json')} is gone"`,
      );
    },
  );

  it(
    'a core that is not ready in time leaves the command working in-process, with one line saying so',
    { timeout: 300_000 },
    async () => {
      const w = await workspace('slow', { startTimeoutSeconds: 0.001 });
      const run = await w.vigil(['checkpoint', w.project]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Checkpoint [0-9a-f]{8} of /);
      expect(lines(run.stderr)).toEqual([
        `vigil: a background Vigil core did not get ready within 0 s (see ${path.join(w.home, 'logs/core.log')}); working in-process.`,
      ]);
    },
  );

  it(
    'replaces a stale background core with one line: its pid gone, another version, a wrong token',
    { timeout: 300_000 },
    async () => {
      const w = await workspace('stale');
      await w.writeServeJson({
        pid: deadPid,
        port: 9,
        token: 'stale',
        url: 'http://127.0.0.1:9/#token=stale',
        version: '0.1.0',
        startedAt: new Date().toISOString(),
        background: true,
      });
      const dead = await w.vigil(['checkpoint', w.project]);
      expect(dead.code).toBe(0);
      expect(lines(dead.stderr)).toEqual([
        `vigil: replacing a stale background core: ${path.join(w.home, 'serve.json')} names pid ${deadPid}, which is not running (a core that stopped without cleaning up).`,
      ]);
      const first = await w.serveJson();
      expect(first?.background).toBe(true);
      expect(isProcessAlive(first?.pid ?? 0)).toBe(true);

      if (first === undefined) throw new Error('no serve.json');
      await w.writeServeJson({ ...first, version: '0.0.1-old' });
      const old = await w.vigil(['checkpoints', 'list', w.project]);
      expect(old.stdout).toContain('Checkpoint taken by hand');
      expect(old.code).toBe(0);
      expect(lines(old.stderr)).toEqual([
        `vigil: replacing a stale background core: the background core (pid ${first.pid}) runs Vigil 0.0.1-old, this is 0.1.0.`,
      ]);
      expect(await isProcessGone(first.pid)).toBe(true);
      const second = await w.serveJson();
      expect(second?.pid).not.toBe(first.pid);

      if (second === undefined) throw new Error('no serve.json');
      await w.writeServeJson({ ...second, token: 'not-its-token' });
      const forged = await w.vigil(['checkpoints', 'list', w.project]);
      expect(forged.code).toBe(0);
      expect(lines(forged.stderr)).toEqual([
        `vigil: replacing the background core (pid ${second.pid}): the core at ${new URL(second.url ?? '').origin} refused serve.json's token.`,
      ]);
      expect(await isProcessGone(second.pid)).toBe(true);
      const third = await w.serveJson();
      expect(third?.background).toBe(true);
      expect(await w.liveCores()).toEqual([third?.pid]);
    },
  );
});
