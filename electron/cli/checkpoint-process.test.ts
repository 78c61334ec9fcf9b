import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateTree, gitWriteTree, testService } from '../checkpoints/test-support/store-fixtures';
import { makeTempDir } from '../test-support/temp-dir';
import { runVigil } from '../test-support/run-vigil';
import { checkpointArguments, runCheckpointProcess } from './checkpoint-process';

describe('vigil checkpoint DIR: the walk head start', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let home: string;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cli-head-start-'));
    dir = path.join(base, 'project');
    home = path.join(base, 'home');
    generateTree(dir, 2_500);
    const first = testService(path.join(home, 'checkpoints'));
    try {
      await first.checkpoint(dir, { reason: 'first' });
    } finally {
      await first.dispose();
    }
  });
  afterEach(async () => {
    await remove();
  });

  it('reads the directory and --local from the arguments, and gives up on anything unusual', () => {
    expect(checkpointArguments(['proj', '--reason', 'x y', '--json'], '/w')).toEqual({
      dir: '/w/proj',
      isLocal: false,
    });
    expect(checkpointArguments(['--local', '/abs', '--reason=r'], '/w')).toEqual({ dir: '/abs', isLocal: true });
    for (const args of [[], ['a', 'b'], ['a', '--help'], ['-h', 'a'], ['a', '--unknown'], ['--', 'a'], ['']])
      expect(checkpointArguments(args, '/w')).toBeUndefined();
  });

  it('starts the walk under the store lock when no core takes the call, and nothing when one does or will', async () => {
    const lockPath = path.join(home, 'checkpoints', 'store.lock');
    const env = { VIGIL_HOME: home, VIGIL_NO_CORE: '1' };
    const seen = (argv: readonly string[], given: NodeJS.ProcessEnv = env) =>
      runCheckpointProcess(argv, { env: given, cwd: base }, ({ headStart, serveLookup }) =>
        Promise.resolve({ dir: headStart?.dir, isLocked: existsSync(lockPath), served: serveLookup?.kind }),
      );
    expect(await seen(['checkpoint', 'project'])).toEqual({ dir, isLocked: true, served: undefined });
    // No core, but the command may start a background one: it will relay, so no walk starts here.
    expect(await seen(['checkpoint', 'project'], { VIGIL_HOME: home })).toEqual({
      dir: undefined,
      isLocked: false,
      served: 'none',
    });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      path.join(home, 'serve.json'),
      JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:9/?token=t', token: 't' }),
    );
    // A resident core named: the call is relayed, so no lock is taken and no worker started.
    expect(await seen(['checkpoint', 'project'])).toEqual({ dir: undefined, isLocked: false, served: 'found' });
    expect(await seen(['checkpoint', 'project', '--local'])).toEqual({ dir, isLocked: true, served: undefined });
    expect(existsSync(lockPath)).toBe(false);
  });

  it("asks for the command's modules once the walk's threads exist (handing them over), or at once when none will", async () => {
    const env = { VIGIL_HOME: home, VIGIL_NO_CORE: '1' };
    const steps = async (argv: readonly string[], given: NodeJS.ProcessEnv = env): Promise<string[]> => {
      const seen: string[] = [];
      await runCheckpointProcess(
        argv,
        { env: given, cwd: base },
        ({ headStart }) => {
          seen.push(headStart === undefined ? 'run' : `run with the walk of ${path.basename(headStart.dir)}`);
          return Promise.resolve();
        },
        (started) => {
          const running = started.length > 0 && started.every((thread) => thread.threadId > 0);
          seen.push(`load with ${running ? 'running threads' : `${started.length} threads`}`);
        },
      );
      return seen;
    };
    expect(await steps(['checkpoint', 'project'])).toEqual([
      'load with running threads',
      'run with the walk of project',
    ]);
    // A background core may start: the call will be relayed, nothing starts here.
    expect(await steps(['checkpoint', 'project'], { VIGIL_HOME: home })).toEqual(['load with 0 threads', 'run']);
    expect(await steps(['checkpoint', '--help'])).toEqual(['load with 0 threads', 'run']);
  });

  it('checkpoints the tree git write-tree makes of it, through the whole executable', async () => {
    writeFileSync(path.join(dir, 'd0/f1.txt'), 'changed\n');
    writeFileSync(path.join(dir, 'd2/new.txt'), 'new\n');
    const run = await runVigil(['checkpoint', dir, '--json'], { env: { VIGIL_HOME: home } });
    expect(run.stderr).toBe('');
    const outcome = JSON.parse(run.stdout) as { kind: string; checkpoint: { tree: string; stats: { files: number } } };
    expect(outcome).toMatchObject({ kind: 'created', checkpoint: { stats: { files: 2 } } });
    expect(outcome.checkpoint.tree).toBe(gitWriteTree(path.join(base, 'shadow'), dir));
    expect(existsSync(path.join(home, 'checkpoints', 'store.lock'))).toBe(false);
    const again = await runVigil(['checkpoint', dir], { env: { VIGIL_HOME: home } });
    expect(again.stdout).toMatch(/^Nothing changed since checkpoint/);
  });

  it("opens and repairs the store as usual under the head start's hold (a dead writer's temp pack is removed)", async () => {
    const temp = path.join(home, 'checkpoints', 'store', 'objects', 'pack', 'tmp_pack_left_by_a_dead_writer');
    writeFileSync(temp, 'half a pack');
    writeFileSync(path.join(dir, 'd0/f1.txt'), 'changed again\n');
    const run = await runVigil(['checkpoint', dir, '--json'], { env: { VIGIL_HOME: home } });
    expect(run.stderr).toContain('checkpoint store cleaned up after an interrupted writer');
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'created' });
    expect(existsSync(temp)).toBe(false);
  });
});
