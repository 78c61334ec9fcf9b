import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/**
 * What the project holds comes back, and what cannot come back is named (design.md §4): a tracked
 * `img/logo.png` is stored, so a restore by name brings it back; a restore whose checkpoint left
 * out files that are gone now (a `.env`, a database, a file over the size cap) says "incomplete"
 * and names each, in the CLI and its JSON.
 */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let env: NodeJS.ProcessEnv;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 7]);

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-lost-'));
  dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  env = { VIGIL_HOME: path.join(home, 'vigil'), HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
});
afterEach(async () => {
  await remove();
});

function vigil(args: readonly string[]): Promise<VigilRun> {
  return runVigil(args, { env });
}

describe('a tracked binary file', () => {
  it('img/logo.png deleted comes back with "vigil checkpoints restore DIR 1 img/logo.png"', async () => {
    runGit(['init', '-q', dir]);
    writeFiles(dir, { 'img/logo.png': { content: png }, 'src/a.ts': 'a\n' });
    runGit(['add', '-A'], { cwd: dir });
    const taken = await vigil(['checkpoint', dir, '--local']);
    expect(taken.code, taken.stderr).toBe(0);
    rmSync(path.join(dir, 'img', 'logo.png'));

    const run = await vigil(['checkpoints', 'restore', dir, '1', 'img/logo.png', '--local']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('✅ Restored 1 file(s)');
    expect(readFileSync(path.join(dir, 'img', 'logo.png'))).toEqual(png);
    // The blob is git's: git hashes the file on disk to the id the store holds.
    const store = path.join(env['VIGIL_HOME'] ?? '', 'checkpoints', 'store');
    const blob = runGit(['hash-object', path.join(dir, 'img', 'logo.png')]);
    expect(runGit(['--git-dir', store, 'cat-file', '-t', blob])).toBe('blob');
  }, 60_000);
});

describe('a restore that cannot bring back what the checkpoint left out', () => {
  it('says "incomplete" and names a deleted .env, a database file and a file over the size cap', async () => {
    mkdirSync(env['VIGIL_HOME'] ?? '', { recursive: true });
    writeFileSync(
      path.join(env['VIGIL_HOME'] ?? '', 'config.json'),
      JSON.stringify({ checkpoints: { maxFileMiB: 1 } }),
    );
    writeFiles(dir, {
      'a.txt': 'a\n',
      'b.txt': 'b\n',
      '.env': 'TOKEN=1\n',
      'data/app.sqlite': { content: png },
      'big.txt': 'x'.repeat(2 * 1024 * 1024),
    });
    expect((await vigil(['checkpoint', dir, '--local'])).code).toBe(0);
    writeFiles(dir, { 'a.txt': 'changed\n', 'b.txt': 'changed\n' });
    for (const lost of ['.env', 'data/app.sqlite', 'big.txt']) rmSync(path.join(dir, lost));

    const run = await vigil(['checkpoints', 'restore', dir, '1', '--local']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).not.toContain('✅');
    expect(run.stdout).toContain('⚠ Restore incomplete: 2 of 5 file(s) restored');
    expect(run.stdout).toMatch(
      /^ {2}lost +\.env: The checkpoint did not store it \(the exclusion rules leave it out\)/m,
    );
    expect(run.stdout).toMatch(
      /^ {2}lost +big\.txt: The checkpoint did not store it \(it was larger than the size cap\)/m,
    );
    expect(run.stdout).toMatch(/^ {2}lost +data\/app\.sqlite: /m);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(path.join(dir, '.env'))).toBe(false);

    const json = await vigil(['checkpoints', 'restore', dir, '2', '--local', '--json']);
    const result = JSON.parse(json.stdout) as { status: string; outcomes: { path: string; reason?: string }[] };
    expect(result.status).toBe('incomplete');
    expect(result.outcomes.filter((outcome) => outcome.reason === 'lost').map((outcome) => outcome.path)).toEqual([
      '.env',
      'big.txt',
      'data/app.sqlite',
    ]);
  }, 60_000);

  it('names a lost file asked for by name instead of saying it does not exist', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', '.env': 'TOKEN=1\n' });
    expect((await vigil(['checkpoint', dir, '--local'])).code).toBe(0);
    rmSync(path.join(dir, '.env'));
    const run = await vigil(['checkpoints', 'restore', dir, '1', '.env', '--local']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('⚠ Restore incomplete');
    expect(run.stdout).toMatch(/^ {2}lost +\.env: /m);
  }, 60_000);

  it('restores a folder an agent made a looping symlink, and names the .env it held as lost (seed 1036)', async () => {
    writeFiles(dir, { 'src/a.ts': 'a\n', 'src/.env': 'TOKEN=1\n' });
    expect((await vigil(['checkpoint', dir, '--local'])).code).toBe(0);
    rmSync(path.join(dir, 'src'), { recursive: true });
    symlinkSync('src', path.join(dir, 'src'));
    // The plan looked at src/.env through the loop (ELOOP) and the restore stopped with an error.
    const run = await vigil(['checkpoints', 'restore', dir, '1', '--local']);
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain('⚠ Restore incomplete');
    expect(run.stdout).toMatch(/^ {2}lost +src\/\.env: /m);
    expect(lstatSync(path.join(dir, 'src')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(dir, 'src', 'a.ts'), 'utf8')).toBe('a\n');
  }, 60_000);
});
