import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpointService } from '../../checkpoints';
import { dirHash } from '../../git-store';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { commandTable } from '../command-table';
import { runCli } from '../run-cli';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

/** `vigil …` in this process through the CLI's own entry, with captured streams. */
async function vigil(args: readonly string[], env: NodeJS.ProcessEnv) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => err.push(chunk));
  const code = await runCli(
    args,
    { stdout, stderr, stdin: new PassThrough(), env: { ...process.env, ...env }, cwd: process.cwd() },
    commandTable,
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
}

function git(gitdir: string, ...args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitdir}`, ...args], { encoding: 'utf8' });
}

describe('lowering retention: the dropped checkpoints stay listed and restorable', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let gitdir: string;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cli-dropped-'));
    dir = path.join(base, 'project');
    home = path.join(base, 'home');
    mkdirSync(dir, { recursive: true });
    env = { VIGIL_HOME: home };
    // Ten checkpoints under the default retention (50): notes.txt says which version each holds.
    const engine = new CheckpointEngine({ root: path.join(home, 'checkpoints'), logger: silentLogger });
    for (let version = 1; version <= 10; version += 1) {
      writeFileSync(path.join(dir, 'notes.txt'), `version ${version}\n`);
      expect((await engine.checkpoint(dir, { reason: `version ${version}` })).kind).toBe('created');
    }
    gitdir = engine.gitdir;
    await engine.dispose();
  });
  afterEach(async () => {
    await remove();
  });

  it('a checkpoint under maxSnapshots 3 moves the 8 oldest to the dropped area: listed, restorable, kept by git', async () => {
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ checkpoints: { maxSnapshots: 3 } }));
    // Said before it applies: the status counts what the next checkpoint will cut.
    const before = await vigil(['checkpoints', 'status', dir], env);
    expect(before.stdout).toMatch(/the next checkpoint will drop 8 old checkpoint\(s\): checkpoints.maxSnapshots is 3/);
    writeFileSync(path.join(dir, 'notes.txt'), 'version 11\n');
    const taken = await vigil(['checkpoint', dir, '--reason', 'version 11'], env);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toMatch(/Dropped 8 old checkpoints/);

    const after = await vigil(['checkpoints', 'status', dir, '--json'], env);
    expect(JSON.parse(after.stdout)).toMatchObject({ directories: [{ count: 3, wouldDrop: 0, dropped: 8 }] });
    const text = await vigil(['checkpoints', 'list', dir, '--dropped'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/8 restorable/);
    expect(text.stdout).toMatch(/d1\. [0-9a-f]{8} .* version 8 +\[dropped .* by retention; restorable until/);
    expect(text.stdout).toMatch(/d8\. [0-9a-f]{8} .* version 1 /);

    const json = await vigil(['checkpoints', 'list', dir, '--dropped', '--json'], env);
    const listed = JSON.parse(json.stdout) as {
      total: number;
      keepDroppedDays: number;
      entries: { number: number; id: string; reason: string; droppedBy: string; expiredAt?: string }[];
    };
    expect(listed.total).toBe(8);
    expect(listed.keepDroppedDays).toBe(7);
    expect(listed.entries.map((entry) => entry.reason)).toEqual(
      [8, 7, 6, 5, 4, 3, 2, 1].map((version) => `version ${version}`),
    );
    expect(listed.entries.every((entry) => entry.droppedBy === 'retention' && entry.expiredAt === undefined)).toBe(
      true,
    );

    // Git's own tools agree: the store is sound, the timeline holds 3, the dropped ref the other 8.
    git(gitdir, 'fsck', '--strict', '--no-dangling');
    const dirhash = dirHash(dir);
    expect(git(gitdir, 'rev-list', `refs/vigil/${dirhash}`).trim().split('\n')).toHaveLength(3);
    const droppedRefs = git(gitdir, 'for-each-ref', '--format=%(refname)', `refs/vigil-dropped/${dirhash}`)
      .trim()
      .split('\n');
    expect(droppedRefs).toHaveLength(1);
    expect(
      git(gitdir, 'log', '--format=%s', droppedRefs[0] ?? '')
        .trim()
        .split('\n'),
    ).toEqual(listed.entries.map((entry) => entry.reason));

    // A prune collects garbage: the dropped checkpoints' objects stay (their ref keeps them).
    expect((await vigil(['checkpoints', 'prune'], env)).code).toBe(0);
    git(gitdir, 'fsck', '--strict', '--no-dangling');
    expect(git(gitdir, 'cat-file', '-t', listed.entries[7]?.id ?? '').trim()).toBe('commit');

    // d5 is version 4: restoring notes.txt from it brings version 4 back.
    const restored = await vigil(['checkpoints', 'restore', dir, 'd5', 'notes.txt'], env);
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('version 4\n');
    // Its id works as well as its number.
    const byId = await vigil(
      ['checkpoints', 'restore', dir, listed.entries[0]?.id.slice(0, 10) ?? '', 'notes.txt'],
      env,
    );
    expect(byId.code, byId.stderr + byId.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('version 8\n');
  });

  it('a dropped checkpoint that expired says it expired and when', async () => {
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ checkpoints: { maxSnapshots: 3, keepDroppedDays: 0 } }),
    );
    writeFileSync(path.join(dir, 'notes.txt'), 'version 11\n');
    expect((await vigil(['checkpoint', dir], env)).code).toBe(0);
    // The prune looks at the dropped area: with 0 days kept, the batch leaves the store.
    expect((await vigil(['checkpoints', 'prune'], env)).code).toBe(0);
    git(gitdir, 'fsck', '--strict', '--no-dangling');
    expect(git(gitdir, 'for-each-ref', 'refs/vigil-dropped').trim()).toBe('');

    const listed = await vigil(['checkpoints', 'list', dir, '--dropped'], env);
    expect(listed.stdout).toMatch(/0 restorable/);
    expect(listed.stdout).toMatch(/d1\. .* version 8 .*EXPIRED/);
    const refused = await vigil(['checkpoints', 'restore', dir, 'd1', 'notes.txt'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      /Dropped checkpoint d1 of .* \([0-9a-f]{8} "version 8", taken .*\) was dropped on .* by retention and expired on .*: its content is no longer in the store/,
    );
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('version 11\n');
  });
});
